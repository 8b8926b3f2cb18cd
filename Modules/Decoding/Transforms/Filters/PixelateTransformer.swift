import WebImageCore

/// Replaces each square block of ``blockSize`` pixels, from the top left, by its average
/// (colour weighted by alpha); blocks at the right and bottom edges average the pixels
/// they cover. Every frame of an animated image. imgproxy's `pix`.
public struct PixelateTransformer: ImageTransforming, Hashable {
    public let blockSize: Int

    /// - Parameter blockSize: 2 or more; 1 changes nothing.
    public init(blockSize: Int) {
        precondition(blockSize >= 1, "a block is at least one pixel")
        self.blockSize = blockSize
    }

    public var identifier: String { "pixelate(\(blockSize))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        guard blockSize > 1 else { return image }
        let blockSize = blockSize
        return try PremultipliedPixels.changingFrames(of: image) { pixels in
            let (width, height, channels) = (pixels.width, pixels.height, pixels.channels)
            for top in stride(from: 0, to: height, by: blockSize) {
                for left in stride(from: 0, to: width, by: blockSize) {
                    let rows = top..<min(height, top + blockSize)
                    let columns = left..<min(width, left + blockSize)
                    var sums = [Float](repeating: 0, count: channels)
                    for y in rows {
                        for x in columns {
                            for channel in 0..<channels { sums[channel] += pixels.values[(y * width + x) * channels + channel] }
                        }
                    }
                    let count = Float(rows.count * columns.count)
                    for y in rows {
                        for x in columns {
                            for channel in 0..<channels { pixels.values[(y * width + x) * channels + channel] = sums[channel] / count }
                        }
                    }
                }
            }
        }
    }
}
