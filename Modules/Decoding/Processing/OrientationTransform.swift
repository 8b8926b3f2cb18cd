import WebImageCore

/// Turns stored pixels upright according to an EXIF orientation.
package enum OrientationTransform {
    /// The upright copy of `bitmap` (in storage allocated as `allocation` says), or
    /// `bitmap` itself for ``ImageOrientation/up``.
    package static func apply(
        _ orientation: ImageOrientation, to bitmap: ImageBitmap, allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) -> ImageBitmap {
        guard orientation != .up else { return bitmap }
        let w = bitmap.width
        let h = bitmap.height
        let outWidth = orientation.swapsWidthAndHeight ? h : w
        let outHeight = orientation.swapsWidthAndHeight ? w : h
        // For a display pixel (dx, dy), the stored pixel it shows.
        let source: (Int, Int) -> (Int, Int)
        switch orientation {
        case .up: source = { ($0, $1) }
        case .upMirrored: source = { (w - 1 - $0, $1) }
        case .down: source = { (w - 1 - $0, h - 1 - $1) }
        case .downMirrored: source = { ($0, h - 1 - $1) }
        case .leftMirrored: source = { ($1, $0) }
        case .right: source = { ($1, h - 1 - $0) }
        case .rightMirrored: source = { (w - 1 - $1, h - 1 - $0) }
        case .left: source = { (w - 1 - $1, $0) }
        }
        let bpp = bitmap.pixelFormat.bytesPerPixel
        let stride = bitmap.bytesPerRow
        return try bitmap.withUnsafeBytes { (input) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: outWidth, height: outHeight, pixelFormat: bitmap.pixelFormat, allocation: allocation) {
                (out, outStride) in
                let src = input.baseAddress!
                let dst = out.baseAddress!
                for dy in 0..<outHeight {
                    for dx in 0..<outWidth {
                        let (sx, sy) = source(dx, dy)
                        (dst + dy * outStride + dx * bpp).copyMemory(from: src + sy * stride + sx * bpp, byteCount: bpp)
                    }
                }
            }
        }
    }
}
