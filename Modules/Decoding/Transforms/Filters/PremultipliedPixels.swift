import WebImageCore

/// A bitmap's pixels as floats, colour premultiplied by alpha, so that filters do not
/// bleed the colour of transparent pixels into their neighbours; and back.
struct PremultipliedPixels {
    var values: [Float]
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat

    var channels: Int { pixelFormat.bytesPerPixel }

    init(_ bitmap: ImageBitmap) {
        width = bitmap.width
        height = bitmap.height
        pixelFormat = bitmap.pixelFormat
        let channels = bitmap.pixelFormat.bytesPerPixel
        var values = [Float](repeating: 0, count: width * height * channels)
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let from = y * bitmap.bytesPerRow + x * channels
                    let to = (y * bitmap.width + x) * channels
                    if channels == 4 {
                        let alpha = Float(bytes[from + 3]) / 255
                        for channel in 0..<3 { values[to + channel] = Float(bytes[from + channel]) * alpha }
                        values[to + 3] = Float(bytes[from + 3])
                    } else {
                        for channel in 0..<channels { values[to + channel] = Float(bytes[from + channel]) }
                    }
                }
            }
        }
        self.values = values
    }

    /// Back to a bitmap: colour divided by alpha again, rounded and clamped.
    func bitmap() throws(ImageDecodingError) -> ImageBitmap {
        let (values, width, channels) = (self.values, self.width, self.channels)
        return try ImageBitmap(width: width, height: height, pixelFormat: pixelFormat) { bytes, row in
            for y in 0..<height {
                for x in 0..<width {
                    let from = (y * width + x) * channels
                    let to = y * row + x * channels
                    if channels == 4 {
                        let alpha = values[from + 3]
                        let unpremultiply: Float = alpha > 0 ? 255 / alpha : 0
                        for channel in 0..<3 { bytes[to + channel] = Self.byte(values[from + channel] * unpremultiply) }
                        bytes[to + 3] = Self.byte(alpha)
                    } else {
                        for channel in 0..<channels { bytes[to + channel] = Self.byte(values[from + channel]) }
                    }
                }
            }
        }
    }

    /// `image` with each frame's pixels changed by `change`, premultiplied in between
    /// (an animation composed on demand stays so).
    static func changingFrames(
        of image: DecodedImage, _ change: @escaping @Sendable (inout PremultipliedPixels) -> Void
    ) throws(ImageDecodingError) -> DecodedImage {
        try image.mappingFrameBitmaps(size: nil) { (bitmap) throws(ImageDecodingError) in
            var pixels = PremultipliedPixels(bitmap)
            change(&pixels)
            return try pixels.bitmap()
        }
    }

    static func byte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
