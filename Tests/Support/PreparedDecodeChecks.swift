import Foundation
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding

/// The checks every decoder's prepared decode meets, written once for the decoders'
/// suites: one header read, an estimate that agrees with the decode, and the decode's
/// own errors for damaged bytes.
public enum PreparedDecodeChecks {
    /// The estimate and the decode of `data` read the header once between them, as `format`.
    public static func oneParse(
        _ decoder: some ImageDecoding, _ data: Data, format: ImageFormat, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let prepared = decoder.prepareDecode(data, options: .default)
            #expect(prepared.estimatedMemory != nil, sourceLocation: sourceLocation)
            return try prepared.decode()
        }
        #expect(log.formats == [format], sourceLocation: sourceLocation)
        #expect(!image.frames.isEmpty, sourceLocation: sourceLocation)
    }

    /// The prepared estimate is the decoder's estimate, covers the pixels the prepared
    /// decode holds, and that decode is the plain decode's.
    public static func estimateAgreesWithDecode(
        _ decoder: some ImageDecoding, _ data: Data, options: DecodeOptions, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let prepared = decoder.prepareDecode(data, options: options)
        let estimate = try #require(prepared.estimatedMemory, sourceLocation: sourceLocation)
        #expect(estimate == decoder.estimatedMemory(decoding: data, options: options), sourceLocation: sourceLocation)
        let image = try prepared.decode()
        let held = image.frames.reduce(0) { $0 + $1.bitmap.packedRowBytes * $1.bitmap.height }
        #expect(estimate >= held, "\(estimate) bytes estimated, \(held) decoded", sourceLocation: sourceLocation)
        let plain = try decoder.decode(data, options: options)
        #expect(image.frames.map(\.bitmap) == plain.frames.map(\.bitmap), sourceLocation: sourceLocation)
        #expect(image.orientation == plain.orientation, sourceLocation: sourceLocation)
    }

    /// Each of `data`'s prefixes at `cuts`, `data`'s first `noiseAfter` bytes followed by
    /// noise, and `data` itself: the prepared decode throws what the decode throws, under
    /// the default limits and a tight pixel limit.
    public static func damagedFilesKeepTheirErrors(
        _ decoder: some ImageDecoding, _ data: Data, cuts: [Int], noiseAfter: Int, label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var damaged = (cuts + [data.count / 3, data.count * 2 / 3, data.count - 1]).map { data.prefix($0) }
        damaged.append(data.prefix(noiseAfter) + Data(repeating: 0x5A, count: 400))
        for options in [DecodeOptions.default, DecodeOptions(maxPixelCount: 100)] {
            for bytes in damaged + [data] {
                let decoded = Result { () throws(ImageDecodingError) in try decoder.decode(bytes, options: options) }
                let prepared = Result { () throws(ImageDecodingError) in try decoder.prepareDecode(bytes, options: options).decode() }
                #expect(prepared.error == decoded.error, "\(bytes.count) bytes of \(label)", sourceLocation: sourceLocation)
            }
        }
    }
}
