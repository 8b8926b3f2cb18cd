import WebImageCore

/// Cuts a region out of every frame of an image and scales it: the one pixel operation
/// behind both transformers.
enum RegionResampler {
    /// Each frame's `region`, scaled to `target` by the decoders' resampler: no larger
    /// than the region unless `enlarging`. Frame timing, loop count and orientation are
    /// kept; an animation composed on demand gets a frame source that cuts and scales
    /// each frame as it is composed.
    static func apply(
        _ region: PixelRect, target: PixelSize, to image: DecodedImage, enlarging: Bool = false
    ) throws(ImageDecodingError) -> DecodedImage {
        guard region.fits(in: image.size) else {
            throw ImageDecodingError(.invalidDimensions, "the region \(region) is not inside the \(image.size) image")
        }
        guard target.width > 0, target.height > 0, enlarging || (target.width <= region.width && target.height <= region.height)
        else {
            throw ImageDecodingError(.invalidDimensions, "cannot scale a \(region.size) region to \(target)")
        }
        if region.size == image.size && target == image.size { return image }
        var result = try image.mappingFrameBitmaps(size: target) { (bitmap) throws(ImageDecodingError) in
            try resample(bitmap, region, target)
        }
        result.isPartial = image.isPartial
        return result
    }

    private static func resample(_ bitmap: ImageBitmap, _ region: PixelRect, _ target: PixelSize) throws(ImageDecodingError) -> ImageBitmap
    {
        let pixelBytes = bitmap.pixelFormat.bytesPerPixel
        if target == region.size {
            // A plain crop: copy the rows.
            return try bitmap.withUnsafeBytes { (source) throws(ImageDecodingError) -> ImageBitmap in
                try ImageBitmap(width: target.width, height: target.height, pixelFormat: bitmap.pixelFormat) { (dest, stride) in
                    for row in 0..<target.height {
                        let from = (region.y + row) * bitmap.bytesPerRow + region.x * pixelBytes
                        UnsafeMutableRawBufferPointer(rebasing: dest[(row * stride)..<((row + 1) * stride)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + stride)]))
                    }
                }
            }
        }
        let sampler = try RowDownsampler(
            source: region.size, target: target, pixelFormat: bitmap.pixelFormat, opaque: RowDownsampler.isOpaque(bitmap, in: region))
        bitmap.withUnsafeBytes { bytes in
            for row in region.y..<(region.y + region.height) {
                sampler.consume(row: bytes.baseAddress! + row * bitmap.bytesPerRow + region.x * pixelBytes)
            }
        }
        return sampler.finish()
    }
}
