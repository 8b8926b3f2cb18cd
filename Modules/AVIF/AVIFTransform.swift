internal import CLibAVIF
import WebImageCore

/// What an AVIF's transform properties ask of the viewer: libavif reads them and
/// leaves them to the caller.
///
/// HEIF applies them in a fixed order: the clean aperture (`clap`, a crop) first, then
/// the rotation (`irot`, anticlockwise in quarter turns), then the mirror (`imir`).
/// The crop is applied to pixels here; rotation and mirror become an
/// `ImageOrientation`, as an EXIF orientation would, so that
/// `DecodeOptions.appliesOrientation` treats every format alike.
struct AVIFTransform {
    /// The rectangle to keep, in coded pixels; `nil` for the whole image.
    let crop: avifCropRect?
    let orientation: ImageOrientation

    init(_ image: UnsafePointer<avifImage>) {
        let flags = image.pointee.transformFlags
        let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.pointee.irot.angle & 3) : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.pointee.imir.mode & 1) : nil
        orientation = Self.orientation(quarterTurnsAnticlockwise: angle, mirrorMode: mirror)
        crop = flags & AVIF_TRANSFORM_CLAP.rawValue != 0 ? Self.cropRect(image) : nil
    }

    /// The EXIF orientation that shows a picture turned `angle` quarter turns
    /// anticlockwise and then mirrored: `mirrorMode` 0 exchanges top and bottom, 1 left
    /// and right (ISO/IEC 23008-12, `imir`).
    static func orientation(quarterTurnsAnticlockwise angle: Int, mirrorMode: Int?) -> ImageOrientation {
        switch (mirrorMode, angle) {
        case (nil, 1): .left
        case (nil, 2): .down
        case (nil, 3): .right
        case (nil, _): .up
        case (1, 0): .upMirrored
        case (1, 1): .rightMirrored
        case (1, 2): .downMirrored
        case (1, _): .leftMirrored
        case (_, 0): .downMirrored
        case (_, 1): .leftMirrored
        case (_, 2): .upMirrored
        case (_, _): .rightMirrored
        }
    }

    /// The clean aperture as a crop libavif can view without copying; `nil` (the whole
    /// image) when the box is invalid or its origin falls between chroma samples, as
    /// browsers ignore a clean aperture they cannot apply.
    private static func cropRect(_ image: UnsafePointer<avifImage>) -> avifCropRect? {
        var rect = avifCropRect()
        var diagnostics = avifDiagnostics()
        var clap = image.pointee.clap
        guard
            avifCropRectConvertCleanApertureBox(
                &rect, &clap, image.pointee.width, image.pointee.height, image.pointee.yuvFormat, &diagnostics) != 0,
            rect.width > 0, rect.height > 0
        else { return nil }
        if rect.x == 0, rect.y == 0, rect.width == image.pointee.width, rect.height == image.pointee.height { return nil }
        var view = avifImage()
        guard avifImageSetViewRect(&view, image, &rect) == AVIF_RESULT_OK else { return nil }
        return rect
    }

    /// The size shown before orientation: the crop's, or the coded image's.
    func displaySize(of image: UnsafePointer<avifImage>) -> PixelSize {
        if let crop { return PixelSize(width: Int(crop.width), height: Int(crop.height)) }
        return PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
    }
}
