import Foundation
import WebImageCore

/// Decodes PNG with libpng (every colour type and bit depth, palettes with tRNS,
/// gray with alpha, Adam7 interlacing).
///
/// Output is 8-bit RGBA with straight alpha: palettes and bit depths under 8 are
/// expanded (low-bit gray by bit replication), tRNS becomes alpha, 16-bit samples keep
/// their high byte. No gamma correction or colour management is applied (gAMA, cHRM,
/// sRGB and iCCP are ignored): pixels are as stored, as browsers without colour
/// management show them. Text, ICC and other metadata chunks are skipped unread, so a
/// zTXt or iCCP decompression bomb costs nothing. The EXIF orientation of an eXIf
/// chunk is exposed. APNG files decode to their default (IDAT) image.
///
/// Thread contract: a value type with no state; decode from any thread.
public struct PNGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .png }

    /// Decodes a whole PNG file.
    ///
    /// - Throws: ``ImageDecodingError`` with `.invalidHeader` (bad signature, CRC or
    ///   IHDR), `.invalidDimensions` (zero width or height), `.tooLarge` (over
    ///   ``DecodeOptions/maxPixelCount``, checked before allocating), `.corrupt`
    ///   (damaged pixel data, a CRC error), `.truncated` (rows missing, or the last
    ///   IDAT chunk not read through its CRC), `.empty`. Bytes after IEND are ignored.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .png) }
        let reader = PNGReader(options: options)
        try reader.feed(data)
        try reader.requireComplete()
        return try PNGDecoder.finalImage(from: reader, options: options)
    }

    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        PNGIncrementalDecoder(options: options)
    }

    static func finalImage(from reader: PNGReader, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        guard let bitmap = reader.bitmap() else {
            throw ImageDecodingError(.truncated, "no pixel data", format: .png)
        }
        let (result, orientation) = try PostProcessing.finish(bitmap, options: options, orientation: reader.orientation)
        return DecodedImage(
            format: .png, frames: [ImageFrame(bitmap: result)], orientation: orientation, sourceSize: bitmap.size
        )
    }
}
