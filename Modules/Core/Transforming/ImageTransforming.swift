/// Turns one decoded image into another after decoding: resize, crop, and so on.
///
/// The Manager applies a request's transformers in order and caches the result under a
/// key that includes every ``identifier``, so the untransformed image and each variant
/// are cached apart. Transformers run on a worker thread, never on the caller's.
public protocol ImageTransforming: Sendable {
    /// Names the transformation and all of its parameters, for the cache key: two
    /// transformers with the same identifier must give the same output for the same input.
    var identifier: String { get }

    /// The version of the transformation's code: raised whenever its output for the same
    /// ``identifier`` and input changes (a better resampler, a fixed rounding), so that
    /// results a manager stored from the older code are made again rather than served.
    /// 1 by default.
    var version: Int { get }

    /// The transformed image. Every frame of an animated image is transformed alike.
    ///
    /// - Throws: ``ImageDecodingError`` when the result cannot be made (for example
    ///   `outOfMemory`, or `invalidDimensions` for a crop outside the image).
    func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage
}

extension ImageTransforming {
    public var version: Int { 1 }
}
