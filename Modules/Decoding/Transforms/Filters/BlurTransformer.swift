import WebImageCore

/// A Gaussian blur of standard deviation ``sigma`` pixels (every frame of an animated
/// image), on colour premultiplied by alpha. The kernel is cut where it falls below a
/// fifth of its peak, as libvips's `gaussblur` (imgproxy's `bl`) cuts it; edges repeat.
///
/// ```swift
/// let placeholder = try BlurTransformer(sigma: 8).transform(thumbnail)
/// ```
public struct BlurTransformer: ImageTransforming, Hashable {
    public let sigma: Double

    /// - Parameter sigma: above 0; at most 1,000.
    public init(sigma: Double) {
        precondition(sigma > 0 && sigma <= 1_000, "a blur needs a sigma from above 0 to 1000")
        self.sigma = sigma
    }

    public var identifier: String { "blur(\(sigma))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        let kernel = GaussianKernel(sigma: sigma)
        return try PremultipliedPixels.changingFrames(of: image) { pixels in
            pixels.values = SeparableConvolution.apply(
                kernel, to: pixels.values, width: pixels.width, height: pixels.height, channels: pixels.channels)
        }
    }
}
