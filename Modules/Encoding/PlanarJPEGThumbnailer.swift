internal import CLibTurboJPEG
import Foundation
import WebImageCore

/// Makes a smaller JPEG of a JPEG without leaving YCbCr: the JPEG-to-JPEG thumbnail's
/// fast path.
///
/// libjpeg-turbo decodes the source's planes at the DCT scale that still covers the
/// target (the scale the JPEG decoder picks for RGBA). Each plane is then resampled on
/// its own with the decoders' resampler (`ResizeTransformer`'s): luma to the target,
/// chroma to the half-size planes of the 4:2:0 output. The planes are compressed as they
/// are. The RGBA path (decode, `ResizeTransformer`, ``JPEGEncoder``) converts every
/// pixel from YCbCr and upsamples the chroma, resamples four bytes a pixel, then
/// converts back and subsamples again; the planes skip all of that and resample 1.5
/// bytes a pixel. The output's luma is what the RGBA path gives; its colour is as close
/// to the source as that path's.
///
/// ``thumbnail(of:size:)`` returns `nil`, and the caller takes the RGBA path, when:
/// - the source is not a YCbCr JPEG (gray, CMYK, YCCK, RGB) or not a JPEG at all;
/// - the source's chroma is coarser than the output's at the scale decoded (4:1:1 at
///   any but the smallest outputs);
/// - the source does not cover `size` (no enlarging), `size` has a side of 0 or over
///   65,535, or the source has more than ``maxPixelCount`` pixels;
/// - libjpeg-turbo reports anything at all, a warning included (a truncated or damaged
///   file). The RGBA path has its own answer for damaged files.
///
/// Progressive sources are read with libjpeg-turbo's scan limit (`TJFLAG_LIMITSCANS`),
/// so a file of many tiny scans fails here and goes to the RGBA path, which has its own
/// limit. The output is baseline 4:2:0 without metadata, and the planes are not
/// turned: take this path only for a source whose Exif orientation is up
/// (`ImageDecoderRegistry.header(of:)`) and when nothing is to be cut.
///
/// ```swift
/// let size = PixelSize(width: 300, height: 225)
/// let thumbnail =
///     try PlanarJPEGThumbnailer(quality: 80).thumbnail(of: data, size: size)
///     ?? JPEGEncoder(quality: 80).encode(
///         ResizeTransformer(width: size.width, height: size.height, mode: .stretch)
///             .transform(JPEGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 300))).bitmap)
/// ```
///
/// Thread contract: a value; ``thumbnail(of:size:)`` may run on any thread, at once on
/// several (each call has its own TurboJPEG handles). It blocks its thread for the work.
public struct PlanarJPEGThumbnailer: Sendable, Hashable {
    /// 1 to 100 (clamped), as ``JPEGEncoder/quality``; 85 by default.
    public var quality: Int
    /// The most pixels a source may have (its stored width times height); a larger one
    /// gets `nil`. `DecodeOptions.defaultMaxPixelCount` by default.
    public var maxPixelCount: Int

    public init(quality: Int = 85, maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount) {
        self.quality = quality
        self.maxPixelCount = maxPixelCount
    }

    /// The baseline 4:2:0 JPEG of the JPEG `data` at exactly `size`, or `nil` when this
    /// path does not take the file (see ``PlanarJPEGThumbnailer``) and the caller must
    /// take the RGBA path.
    ///
    /// `size` is the output's size, not a box: its aspect ratio is the caller's choice.
    /// Never throws and never traps on bad bytes: a damaged file is a `nil`.
    public func thumbnail(of data: Data, size target: PixelSize) -> Data? {
        guard !data.isEmpty, target.width > 0, target.height > 0, target.width <= 65_535, target.height <= 65_535,
            let decompressor = tjInitDecompress()
        else { return nil }
        defer { tjDestroy(decompressor) }
        return data.withUnsafeBytes { (bytes) -> Data? in
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let sampling = Int32(TJSAMP_420.rawValue)
            let lumaPlane = PixelSize(
                width: Int(tjPlaneWidth(0, Int32(target.width), sampling)), height: Int(tjPlaneHeight(0, Int32(target.height), sampling)))
            let chromaPlane = PixelSize(
                width: Int(tjPlaneWidth(1, Int32(target.width), sampling)), height: Int(tjPlaneHeight(1, Int32(target.height), sampling)))
            guard
                let planes = JPEGPlanes.decode(
                    source, count: bytes.count, covering: target, maxPixelCount: maxPixelCount, with: decompressor),
                planes.blue.width >= chromaPlane.width, planes.blue.height >= chromaPlane.height,
                let luma = try? JPEGPlanes.extended(JPEGPlanes.resampled(planes.luma, to: target), to: lumaPlane, mirrored: false)
            else { return nil }
            // A chroma sample covers two luma samples of the output, so for an odd side
            // its last one reaches past the image, where the encoder repeats the last
            // luma sample. Its source is extended to match (by a sample in about
            // `target` of them, mirrored: the repeated luma sample stands for the source
            // just inside the edge), so chroma keeps luma's scale exactly; scaled
            // straight to the smaller count, it would drift by up to two thirds of a
            // sample by the far edge.
            func chroma(_ plane: ImageBitmap) throws(ImageDecodingError) -> ImageBitmap {
                let reach = PixelSize(
                    width: Int((Double(plane.width) * Double(2 * chromaPlane.width) / Double(target.width)).rounded()),
                    height: Int((Double(plane.height) * Double(2 * chromaPlane.height) / Double(target.height)).rounded()))
                return try JPEGPlanes.resampled(try JPEGPlanes.extended(plane, to: reach, mirrored: true), to: chromaPlane)
            }
            guard let blue = try? chroma(planes.blue), let red = try? chroma(planes.red) else { return nil }
            return Self.compress(luma: luma, blue: blue, red: red, size: target, quality: quality)
        }
    }

    /// The 4:2:0 JPEG of the three planes (luma padded to whole MCUs).
    private static func compress(luma: ImageBitmap, blue: ImageBitmap, red: ImageBitmap, size: PixelSize, quality: Int) -> Data? {
        guard let compressor = tjInitCompress() else { return nil }
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = luma.withUnsafeBytes { y in
            blue.withUnsafeBytes { u in
                red.withUnsafeBytes { v in
                    var planes: [UnsafePointer<UInt8>?] = [y, u, v].map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
                    var strides = [luma, blue, red].map { Int32($0.bytesPerRow) }
                    return tjCompressFromYUVPlanes(
                        compressor, &planes, Int32(size.width), &strides, Int32(size.height), Int32(TJSAMP_420.rawValue),
                        &output, &outputSize, Int32(min(100, max(1, quality))), 0)
                }
            }
        }
        guard status == 0, let output else {
            if let output { tjFree(output) }
            return nil
        }
        // The buffer is TurboJPEG's; Data takes it over and gives it back to tjFree.
        return Data(
            bytesNoCopy: output, count: Int(outputSize),
            deallocator: .custom { pointer, _ in tjFree(pointer.assumingMemoryBound(to: UInt8.self)) })
    }
}
