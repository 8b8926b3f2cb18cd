import WebImageCore

/// Sharpens by an unsharp mask: each pixel moves away from its Gaussian-blurred
/// surroundings (standard deviation ``sigma``) by as much as it differs from them
/// (amount 1), on colour premultiplied by alpha. libvips's `sharpen` (imgproxy's `sh`)
/// works on lightness with a curve of its own, so the two differ in detail.
public struct SharpenTransformer: ImageTransforming, Hashable {
    public let sigma: Double

    /// - Parameter sigma: above 0; at most 1,000.
    public init(sigma: Double) {
        precondition(sigma > 0 && sigma <= 1_000, "sharpening needs a sigma from above 0 to 1000")
        self.sigma = sigma
    }

    public var identifier: String { "sharpen(\(sigma))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        let kernel = GaussianKernel(sigma: sigma)
        return try PremultipliedPixels.changingFrames(of: image) { pixels in
            let blurred = SeparableConvolution.apply(
                kernel, to: pixels.values, width: pixels.width, height: pixels.height, channels: pixels.channels)
            let channels = pixels.channels
            for position in pixels.values.indices where channels != 4 || position % 4 != 3 {
                let alphaLimit = channels == 4 ? pixels.values[position - position % 4 + 3] : 255
                // Kept within what the alpha allows, so the colour stays premultiplied.
                pixels.values[position] = min(alphaLimit, max(0, 2 * pixels.values[position] - blurred[position]))
            }
        }
    }
}
