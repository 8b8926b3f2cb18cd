import WebImageCore

/// How a JPEG is decoded under ``DecodeOptions``: the DCT scale libjpeg decodes at,
/// the size the caller gets, and the pixel limits checked before any allocation.
/// Its scale arithmetic is the package's one copy: WebImageEncoding's planar JPEG
/// thumbnail decodes at the scale `coveringEighths(of:covering:)` picks.
package struct JPEGScalePlan {
    /// The size asked for (``DecodeOptions/targetSize(for:)`` of the stored size).
    let targetSize: PixelSize
    /// libjpeg decodes at `scaleEighths`/8 of the stored size.
    let scaleEighths: Int
    /// Ask libjpeg for one gray byte a pixel (it cannot for CMYK input).
    let wantsGray: Bool

    /// - Throws: ``ImageDecodingError/Code/tooLarge`` when the scaled decode, or the
    ///   coefficient buffer of a multi-scan file, is over the pixel limit.
    init(header: JPEGHeader, options: DecodeOptions) throws(ImageDecodingError) {
        let source = header.size
        let target = options.targetSize(for: source)
        targetSize = target
        // The smallest M/8 whose scaled size still covers the target on both sides, so
        // the exact resampling afterwards only ever shrinks. Full size is always 8/8:
        // on tiny images a smaller M can round up to the same size with a coarser IDCT.
        scaleEighths = target == source ? 8 : JPEGScalePlan.coveringEighths(of: source, covering: target) ?? 8
        wantsGray = options.pixelFormat == .gray8 && header.colorModel != .cmyk
        let scaled = JPEGScalePlan.scaled(source, eighths: scaleEighths)
        do {
            try options.checkPixelCount(scaled.pixelCount, "a \(scaled) JPEG decode")
            if header.hasMultipleScans {
                // libjpeg holds every DCT coefficient of a multi-scan file at full size.
                try options.checkPixelCount(source.pixelCount, "the coefficients of a \(source) progressive JPEG")
            }
        } catch {
            throw error.withFormat(.jpeg)
        }
    }

    /// libjpeg's output size at M/8: each side rounded up.
    package static func scaled(_ size: PixelSize, eighths: Int) -> PixelSize {
        PixelSize(width: (size.width * eighths + 7) / 8, height: (size.height * eighths + 7) / 8)
    }

    /// The smallest M (1 to 8) whose M/8 scale of `source` covers `target` on both
    /// sides, so that the exact resampling afterwards only ever shrinks; `nil` when even
    /// 8/8 does not (the target is larger than the source).
    package static func coveringEighths(of source: PixelSize, covering target: PixelSize) -> Int? {
        (1...8).first { m in
            let size = scaled(source, eighths: m)
            return size.width >= target.width && size.height >= target.height
        }
    }
}
