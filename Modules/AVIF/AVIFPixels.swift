internal import CLibAVIF
import WebImageCore
import WebImageDecoding

/// Converts libavif's decoded YUV planes to the library's 8-bit straight RGBA.
enum AVIFPixels {
    /// Rows converted at a time when scaling: even, so every band starts on a chroma row.
    private static let bandRows = 16

    /// `image` (cropped to `crop` when given) as RGBA at `target` size.
    ///
    /// At full size libavif writes straight into the returned bitmap. Smaller, the
    /// picture is converted in bands of 16 rows, each fed to the resampler, so the
    /// full-size RGBA never exists (only libavif's YUV planes,
    /// about 1.5 bytes per pixel for 8-bit 4:2:0). Chroma at a band's edge is upsampled
    /// from that band alone, a difference of a rounding step that the downscale
    /// averages away.
    ///
    /// The bitmap's storage is allocated as `allocation` says.
    static func bitmap(
        of image: UnsafeMutablePointer<avifImage>, crop: avifCropRect?, target: PixelSize, allocation: PixelAllocation
    ) throws(ImageDecodingError) -> ImageBitmap {
        guard var crop else { return try convert(image, target: target, allocation: allocation) }
        var view = avifImage()
        guard avifImageSetViewRect(&view, image, &crop) == AVIF_RESULT_OK else {
            throw ImageDecodingError(.corrupt, "the AVIF clean aperture does not fit the image", format: .avif)
        }
        return try withUnsafeMutablePointer(to: &view) { (pointer) throws(ImageDecodingError) in
            try convert(pointer, target: target, allocation: allocation)
        }
    }

    private static func convert(
        _ image: UnsafeMutablePointer<avifImage>, target: PixelSize, allocation: PixelAllocation
    ) throws(ImageDecodingError) -> ImageBitmap {
        let size = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        if target == size {
            return try ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8, allocation: allocation) {
                (out, stride) throws(ImageDecodingError) in
                try toRGBA(image, into: out.baseAddress!, rowBytes: stride)
            }
        }
        let downsampler = try RowDownsampler(
            source: size, target: target, pixelFormat: .rgba8, opaque: image.pointee.alphaPlane == nil, allocation: allocation)
        let stride = size.width * 4
        let band = UnsafeMutableRawPointer.allocate(byteCount: stride * bandRows, alignment: 64)
        defer { band.deallocate() }
        var y = 0
        while y < size.height {
            let rows = min(bandRows, size.height - y)
            var rect = avifCropRect(x: 0, y: UInt32(y), width: UInt32(size.width), height: UInt32(rows))
            var strip = avifImage()
            guard avifImageSetViewRect(&strip, image, &rect) == AVIF_RESULT_OK else {
                throw ImageDecodingError(.corrupt, "libavif refused a band of rows \(y) to \(y + rows)", format: .avif)
            }
            try toRGBA(&strip, into: band, rowBytes: stride)
            for row in 0..<rows { downsampler.consume(row: (band + row * stride).assumingMemoryBound(to: UInt8.self)) }
            y += rows
        }
        return downsampler.finish()
    }

    /// libavif's conversion of `image` into `pixels`: 8-bit RGBA, straight alpha (255
    /// where the file has none), 10- and 12-bit samples rescaled.
    private static func toRGBA(
        _ image: UnsafeMutablePointer<avifImage>, into pixels: UnsafeMutableRawPointer, rowBytes: Int
    ) throws(ImageDecodingError) {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.alphaPremultiplied = 0
        if image.pointee.depth > 8 {
            // libyuv's shortcut rounds 10- and 12-bit samples to 8 bits before upsampling
            // chroma; libavif's own path converts at full precision, then rescales.
            rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_BEST_QUALITY
            rgb.avoidLibYUV = 1
        }
        rgb.pixels = pixels.assumingMemoryBound(to: UInt8.self)
        rgb.rowBytes = UInt32(rowBytes)
        let result = avifImageYUVToRGB(image, &rgb)
        if result == AVIF_RESULT_REFORMAT_FAILED || result == AVIF_RESULT_NOT_IMPLEMENTED {
            // The planes decoded: what fails is a matrix (or layout) libavif cannot turn into RGB.
            throw ImageDecodingError(
                .unsupported, "libavif cannot convert YUV with matrix coefficients \(image.pointee.matrixCoefficients) to RGB",
                format: .avif)
        }
        if let error = AVIFResult.error(result) { throw error }
    }
}
