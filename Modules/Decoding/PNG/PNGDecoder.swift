import Foundation
import WebImageCore

/// Decodes PNG with libpng (every colour type and bit depth, palettes with tRNS,
/// gray with alpha, Adam7 interlacing).
///
/// Output is 8-bit RGBA with straight alpha: palettes and bit depths under 8 are
/// expanded (low-bit gray by bit replication), tRNS becomes alpha, 16-bit samples keep
/// their high byte. No gamma correction or colour management is applied (gAMA, cHRM,
/// sRGB and iCCP are ignored): pixels are as stored, as browsers without colour
/// management show them. libpng is handed only the chunks decoding needs (IHDR, PLTE,
/// tRNS, IDAT, IEND and unknown critical chunks, which it refuses): text, ICC and every
/// other ancillary chunk is stepped over unstored, so a zTXt or iCCP decompression
/// bomb, or a million tEXt chunks, cost one pass over their bytes. Work is linear in
/// the input however many chunks it has and however thinly it arrives. A critical
/// chunk other than IDAT over 4 KiB is refused. The EXIF orientation of the first eXIf
/// chunk is exposed (when its CRC is right). APNG files decode to their default (IDAT)
/// image.
///
/// Thread contract: a value type with no state; decode from any thread.
public struct PNGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .png }

    /// Decodes a whole PNG file.
    ///
    /// - Throws: `ImageDecodingError` with `.invalidHeader` (bad signature, CRC or
    ///   IHDR), `.invalidDimensions` (zero width or height), `.tooLarge` (over
    ///   `DecodeOptions.maxPixelCount`, checked before allocating), `.corrupt`
    ///   (damaged pixel data, a CRC error, a wrong zlib checksum, image data that ends
    ///   before the last row while the file goes on), `.truncated` (the data ends
    ///   before the last row, or inside the last IDAT chunk before its CRC), `.empty`.
    ///   A file that ends after its last IDAT chunk decodes, IEND or not. Bytes after
    ///   IEND are ignored.
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
