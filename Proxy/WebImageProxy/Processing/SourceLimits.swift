/// What the proxy refuses to process, as imgproxy's and imagor's operators set it. Each
/// is checked before the cost it guards: the bytes while they download, the resolution
/// and frames from the header before any pixel is decoded. A source over one gets 422.
public struct SourceLimits: Sendable, Hashable {
    /// The most bytes a source may have (32 MiB): the download stops there.
    public var maxBytes: Int64
    /// The most pixels, width times height summed over an animation's frames (50
    /// megapixels, imgproxy's default): a decompression bomb is a small file with a large
    /// resolution, refused here from its header.
    public var maxResolution: Int
    /// The most frames an animation may have (256).
    public var maxFrames: Int

    public init(maxBytes: Int64 = 32 << 20, maxResolution: Int = 50_000_000, maxFrames: Int = 256) {
        self.maxBytes = maxBytes
        self.maxResolution = maxResolution
        self.maxFrames = maxFrames
    }
}
