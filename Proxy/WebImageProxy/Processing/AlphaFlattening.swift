import WebImageCore

/// JPEG has no alpha, and its encoder keeps a transparent pixel's colour, which is often
/// black or noise. Composited over white first, a transparent logo shows as it does on a
/// white page. Opaque images are returned as they are, after one read of their alpha.
enum AlphaFlattening {
    static func overWhite(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> ImageBitmap {
        try over(ProcessingOptions.Color(red: 255, green: 255, blue: 255), bitmap)
    }

    /// `bitmap` composited over `background`: opaque, the colour showing through where
    /// it was transparent (imgproxy's `bg`).
    static func over(_ background: ProcessingOptions.Color, _ bitmap: ImageBitmap) throws(ImageDecodingError) -> ImageBitmap {
        guard bitmap.pixelFormat == .rgba8, hasTransparency(bitmap) else { return bitmap }
        let under = [Int(background.red), Int(background.green), Int(background.blue)]
        let source = bitmap
        return try ImageBitmap(width: bitmap.width, height: bitmap.height, pixelFormat: .rgba8) { output, outputRow in
            source.withUnsafeBytes { input in
                for y in 0..<source.height {
                    let from = y * source.bytesPerRow
                    let to = y * outputRow
                    for x in 0..<source.width {
                        let alpha = Int(input[from + x * 4 + 3])
                        for channel in 0..<3 {
                            // colour * a + background * (1 - a), rounded.
                            let value = Int(input[from + x * 4 + channel]) * alpha + under[channel] * (255 - alpha)
                            output[to + x * 4 + channel] = UInt8((value + 127) / 255)
                        }
                        output[to + x * 4 + 3] = 255
                    }
                }
            }
        }
    }

    static func hasTransparency(_ bitmap: ImageBitmap) -> Bool {
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                for x in 0..<bitmap.width where bytes[row + x * 4 + 3] != 255 { return true }
            }
            return false
        }
    }
}
