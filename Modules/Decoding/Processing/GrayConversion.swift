import WebImageCore

/// RGBA to one-byte luminance, with the weights libjpeg and libpng use (Rec. 601).
package enum GrayConversion {
    package static func luminance(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        // 0.299, 0.587, 0.114 in 16-bit fixed point, rounded.
        let red: UInt32 = 19595 * UInt32(r)
        let green: UInt32 = 38470 * UInt32(g)
        let blue: UInt32 = 7471 * UInt32(b)
        return UInt8(truncatingIfNeeded: (red + green + blue + 32768) >> 16)
    }

    /// A gray copy of an RGBA bitmap, in storage allocated as `allocation` says; alpha
    /// is dropped.
    package static func gray(
        from bitmap: ImageBitmap, allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) -> ImageBitmap {
        guard bitmap.pixelFormat == .rgba8 else { return bitmap }
        return try bitmap.withUnsafeBytes { (input) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: bitmap.width, height: bitmap.height, pixelFormat: .gray8, allocation: allocation) { (out, outStride) in
                let src = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let dst = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<bitmap.height {
                    let row = src + y * bitmap.bytesPerRow
                    for x in 0..<bitmap.width {
                        dst[y * outStride + x] = luminance(r: row[x * 4], g: row[x * 4 + 1], b: row[x * 4 + 2])
                    }
                }
            }
        }
    }
}
