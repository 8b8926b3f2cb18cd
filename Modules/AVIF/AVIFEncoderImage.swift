internal import CLibAVIF
import WebImageCore

/// A libavif image holding a bitmap's pixels as YUV, for one encode.
final class AVIFEncoderImage {
    let pointer: UnsafeMutablePointer<avifImage>

    init(
        _ bitmap: ImageBitmap, settings: AVIFEncoder, orientation: ImageOrientation, cleanAperture: avifCropRect?
    ) throws(ImageDecodingError) {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= 65_536, bitmap.height <= 65_536 else {
            throw ImageDecodingError(.encodingFailed, "AVIF cannot hold a \(bitmap.width)x\(bitmap.height) image", format: .avif)
        }
        let gray = bitmap.pixelFormat == .gray8
        let layout =
            gray
            ? AVIF_PIXEL_FORMAT_YUV400
            : (settings.lossless || settings.subsampling == .s444 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420)
        let depth = gray ? 8 : settings.depth
        guard let image = avifImageCreate(UInt32(bitmap.width), UInt32(bitmap.height), UInt32(depth), layout) else {
            throw ImageDecodingError(.encodingFailed, "libavif could not make an image", format: .avif)
        }
        pointer = image
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if let cicp = settings.statedColorSpace {
            image.pointee.colorPrimaries = UInt16(cicp.colorPrimaries)
            image.pointee.transferCharacteristics = UInt16(cicp.transferCharacteristics)
        }
        if settings.lossless && !gray {
            // Lossless needs the colour planes to be R, G and B themselves.
            image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        }
        try (gray ? fillGray(bitmap) : fillColour(bitmap))
        write(orientation)
        if var cleanAperture {
            var box = avifCleanApertureBox()
            var diagnostics = avifDiagnostics()
            guard
                avifCleanApertureBoxConvertCropRect(&box, &cleanAperture, image.pointee.width, image.pointee.height, layout, &diagnostics)
                    != 0
            else {
                throw ImageDecodingError(.encodingFailed, "libavif: \(AVIFResult.text(diagnostics))", format: .avif)
            }
            image.pointee.clap = box
            image.pointee.transformFlags |= AVIF_TRANSFORM_CLAP.rawValue
        }
    }

    deinit { avifImageDestroy(pointer) }

    /// RGBA through libavif's conversion; the alpha plane only when it says something.
    private func fillColour(_ bitmap: ImageBitmap) throws(ImageDecodingError) {
        let opaque = bitmap.withUnsafeBytes { pixels in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                for x in 0..<bitmap.width where pixels[row + x * 4 + 3] != 255 { return false }
            }
            return true
        }
        let result = bitmap.withUnsafeBytes { pixels in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, pointer)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.ignoreAlpha = opaque ? 1 : 0
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self))
            rgb.rowBytes = UInt32(bitmap.bytesPerRow)
            return avifImageRGBToYUV(pointer, &rgb)
        }
        guard result == AVIF_RESULT_OK else { throw AVIFResult.encodingError(result) }
    }

    /// Gray straight into the luma plane: full range, so every level comes back.
    private func fillGray(_ bitmap: ImageBitmap) throws(ImageDecodingError) {
        let result = avifImageAllocatePlanes(pointer, AVIF_PLANES_YUV.rawValue)
        guard result == AVIF_RESULT_OK, let luma = pointer.pointee.yuvPlanes.0 else { throw AVIFResult.encodingError(result) }
        let lumaRowBytes = Int(pointer.pointee.yuvRowBytes.0)
        bitmap.withUnsafeBytes { pixels in
            for y in 0..<bitmap.height {
                (luma + y * lumaRowBytes).update(
                    from: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * bitmap.bytesPerRow, count: bitmap.width)
            }
        }
    }

    /// `orientation` as HEIF's rotation (anticlockwise quarter turns) then mirror.
    private func write(_ orientation: ImageOrientation) {
        let (angle, mirror): (UInt8, UInt8?) =
            switch orientation {
            case .up: (0, nil)
            case .left: (1, nil)
            case .down: (2, nil)
            case .right: (3, nil)
            case .upMirrored: (0, 1)
            case .downMirrored: (0, 0)
            case .leftMirrored: (1, 0)
            case .rightMirrored: (1, 1)
            }
        if angle != 0 {
            pointer.pointee.irot.angle = angle
            pointer.pointee.transformFlags |= AVIF_TRANSFORM_IROT.rawValue
        }
        if let mirror {
            pointer.pointee.imir.mode = mirror
            pointer.pointee.transformFlags |= AVIF_TRANSFORM_IMIR.rawValue
        }
    }
}
