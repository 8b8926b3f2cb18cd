import Foundation

/// What a file's headers say about decoding it, read without decoding a pixel: what a
/// server checks against its limits, and sizes its decode by, before spending memory.
public struct ImageHeader: Sendable, Hashable {
    /// Format, size as stored, orientation, and whether the file is progressive.
    public var info: ImageInfo
    /// 1 for a still image; an animation's frames, counted by walking its blocks or
    /// chunks (linear in the file, nothing decoded).
    public var frameCount: Int
    /// Whether the file states a colour space other than sRGB that a decode converts
    /// from: an ICC profile that is not sRGB, or CMYK ink. False for untagged and
    /// sRGB files, and where the decoder's header read does not look (it reads JPEG's).
    /// A JPEG-to-JPEG path that keeps the source's samples takes only files without one.
    public var hasNonSRGBColor: Bool
    /// The file's EXIF block: the TIFF bytes of a JPEG's first Exif APP1 segment, a PNG's
    /// eXIf chunk, a WebP's EXIF chunk or an AVIF's Exif item, at most
    /// ``maximumExifByteCount``; `nil` when it has none or the decoder's header read does
    /// not look (GIF). WebImageDecoding's `ExifFields` reads the common camera fields
    /// from it.
    public var exif: Data?

    /// The most EXIF bytes a header carries: a larger block (a thumbnail, a maker note) is
    /// cut here; its fields past the cut read as absent.
    public static let maximumExifByteCount = 64 * 1024

    public init(info: ImageInfo, frameCount: Int = 1, hasNonSRGBColor: Bool = false, exif: Data? = nil) {
        self.info = info
        self.frameCount = frameCount
        self.hasNonSRGBColor = hasNonSRGBColor
        self.exif = exif.map { $0.count > Self.maximumExifByteCount ? Data($0.prefix(Self.maximumExifByteCount)) : $0 }
    }

    /// The size the image is shown at: the stored size, turned by the orientation.
    public var displaySize: PixelSize {
        info.orientation.swapsWidthAndHeight
            ? PixelSize(width: info.size.height, height: info.size.width) : info.size
    }

    /// Width times height times frames: the resolution summed over the animation, as
    /// image proxies limit it (`Int.max` when the product overflows).
    public var totalPixelCount: Int {
        let (product, overflow) = info.size.pixelCount.multipliedReportingOverflow(by: max(1, frameCount))
        return overflow ? Int.max : product
    }
}
