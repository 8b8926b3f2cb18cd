import Foundation
import WebImageCore
internal import WebImageDecoding

/// The JPEG-to-JPEG thumbnail as an `ImageTranscoding` (Core): a JPEG source wanted as a
/// smaller JPEG is resampled in YCbCr by ``PlanarJPEGThumbnailer``, with no RGBA image
/// in between. The default transcoder of the umbrella's `WebImageConfiguration`.
///
/// It makes what decoding with the options and encoding with the ``JPEGEncoder`` would
/// make, and declines (`nil`) everything else:
/// - an encoder other than ``JPEGEncoder`` at 4:2:0, baseline, with no profile to write;
/// - a source that is not a JPEG, or whose headers cannot be read;
/// - a turned source (an Exif orientation other than up) when the options apply the
///   orientation: the planes are not turned;
/// - a source tagged with a colour space other than sRGB (or CMYK), unless the options
///   keep the source's colours (`ColorHandling.preserve`); the decode converts it;
/// - whatever ``PlanarJPEGThumbnailer`` declines (gray, CMYK and RGB JPEGs, coarse
///   chroma, a source over the options' pixel limit, a damaged file).
public struct JPEGThumbnailTranscoder: ImageTranscoding, Hashable {
    public init() {}

    public func transcode(_ source: Data, options: DecodeOptions, encoder: any ImageEncoding) -> TranscodedImage? {
        guard let jpeg = encoder as? JPEGEncoder, jpeg.subsampling == .s420, !jpeg.progressive, jpeg.colorProfile == nil,
            ImageFormat.sniff(source) == .jpeg, let header = try? JPEGDecoder().readHeader(source),
            !options.appliesOrientation || header.info.orientation == .up
        else { return nil }
        switch options.color {
        case .preserve: break
        case .convertToSRGB: guard !header.hasNonSRGBColor else { return nil }
        case .convert: return nil
        }
        let size = options.targetSize(for: header.info.size)
        guard size.pixelCount <= options.maxPixelCount,
            let data = PlanarJPEGThumbnailer(quality: jpeg.quality, maxPixelCount: options.maxPixelCount).thumbnail(of: source, size: size)
        else { return nil }
        return TranscodedImage(data: data, size: size, format: .jpeg)
    }
}
