/// How large an output may be, checked from the URL and the source's header before any
/// pixel is allocated: a canvas (`ex`, `exar`) of a box multiplied by `dpr` and `z` can
/// ask for far more than the source has. A request over one gets 422 naming the limit.
public struct ResultLimits: Sendable, Hashable {
    /// The longest side of an output (16383, the most a WebP can have).
    public var maxDimension: Int
    /// The most pixels of an output (50 megapixels, as the source's default limit).
    public var maxPixels: Int

    public init(maxDimension: Int = 16_383, maxPixels: Int = 50_000_000) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }
}

/// Limits a URL sets for itself (imgproxy's `max_src_resolution`, `max_src_file_size`,
/// `max_animation_frames`, `max_result_dimension`): each can only lower the server's,
/// never raise it.
public struct URLLimits: Sendable, Hashable {
    /// The most source pixels, summed over frames (`msr`, given in megapixels).
    public var maxSourceResolution: Int?
    /// The most source bytes (`msfs`).
    public var maxSourceBytes: Int?
    /// The most frames an output is made of (`maf`), below the server's
    /// ``SourceLimits/maxAnimationFrames``.
    public var maxAnimationFrames: Int?
    /// The longest output side (`mrd`).
    public var maxResultDimension: Int?

    public init() {}
}

extension SourceLimits {
    /// These limits, lowered where `url` asks for less.
    func narrowed(by url: URLLimits) -> SourceLimits {
        SourceLimits(
            maxBytes: url.maxSourceBytes.map { min(maxBytes, Int64($0)) } ?? maxBytes,
            maxResolution: url.maxSourceResolution.map { min(maxResolution, $0) } ?? maxResolution,
            maxFrames: maxFrames,
            maxAnimationFrames: url.maxAnimationFrames.map { min(maxAnimationFrames, $0) } ?? maxAnimationFrames)
    }
}

extension ResultLimits {
    /// These limits, lowered where `url` asks for less.
    func narrowed(by url: URLLimits) -> ResultLimits {
        ResultLimits(maxDimension: url.maxResultDimension.map { min(maxDimension, $0) } ?? maxDimension, maxPixels: maxPixels)
    }
}
