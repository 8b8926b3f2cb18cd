import Foundation
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding

/// The checks every decoder's survey meets, written once for the decoders' suites: one
/// header read for the survey and the decodes prepared from it, and those decodes the
/// decoder's own prepared decodes, errors included.
public enum SurveyedDecodeChecks {
    /// The survey of `data` and a decode prepared from it for `options` (its estimate, its
    /// image) read the header once between them, as `format`.
    public static func oneParse(
        _ decoder: some ImageDecoding, _ data: Data, format: ImageFormat, options: DecodeOptions,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let prepared = try decoder.survey(data).prepareDecode(options: options)
            #expect(prepared.estimatedMemory != nil, sourceLocation: sourceLocation)
            return try prepared.decode()
        }
        #expect(log.formats == [format], sourceLocation: sourceLocation)
        #expect(!image.frames.isEmpty, sourceLocation: sourceLocation)
    }

    /// The survey's header is `readHeader`'s, and the decode it prepares for `options`
    /// gives the estimate and the image of the decoder's `prepareDecode` for the same
    /// options: the same pixels, size, orientation and loop count, or the same error.
    public static func agreesWithPreparedDecode(
        _ decoder: some ImageDecoding, _ data: Data, options: DecodeOptions, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let surveyed = try decoder.survey(data)
        #expect(surveyed.header == (try decoder.readHeader(data)), sourceLocation: sourceLocation)
        let prepared = surveyed.prepareDecode(options: options)
        let direct = decoder.prepareDecode(data, options: options)
        #expect(prepared.format == direct.format, sourceLocation: sourceLocation)
        #expect(prepared.estimatedMemory == direct.estimatedMemory, sourceLocation: sourceLocation)
        let image = Result { () throws(ImageDecodingError) in try prepared.decode() }
        let plain = Result { () throws(ImageDecodingError) in try direct.decode() }
        #expect(image.error == plain.error, sourceLocation: sourceLocation)
        if case .success(let image) = image, case .success(let plain) = plain {
            #expect(image.frames.map(\.bitmap) == plain.frames.map(\.bitmap), sourceLocation: sourceLocation)
            #expect(image.frameCount == plain.frameCount, sourceLocation: sourceLocation)
            #expect(image.sourceSize == plain.sourceSize, sourceLocation: sourceLocation)
            #expect(image.orientation == plain.orientation, sourceLocation: sourceLocation)
            #expect(image.loopCount == plain.loopCount, sourceLocation: sourceLocation)
        }
    }

    /// Each of `data`'s prefixes at `cuts`, `data`'s first `noiseAfter` bytes followed by
    /// noise, and `data` itself, under the default limits and a tight pixel limit: a survey
    /// that fails throws what `readHeader` throws, and a decode prepared from one that
    /// reads throws what the decoder's prepared decode throws.
    public static func damagedFilesKeepTheirErrors(
        _ decoder: some ImageDecoding, _ data: Data, cuts: [Int], noiseAfter: Int, label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var damaged = (cuts + [data.count / 3, data.count * 2 / 3, data.count - 1]).map { data.prefix($0) }
        damaged.append(data.prefix(noiseAfter) + Data(repeating: 0x5A, count: 400))
        for bytes in damaged + [data] {
            let surveyed = Result { () throws(ImageDecodingError) in try decoder.survey(bytes) }
            guard case .success(let source) = surveyed else {
                let header = Result { () throws(ImageDecodingError) in try decoder.readHeader(bytes) }
                #expect(surveyed.error == header.error, "\(bytes.count) bytes of \(label)", sourceLocation: sourceLocation)
                continue
            }
            for options in [DecodeOptions.default, DecodeOptions(maxPixelCount: 100)] {
                let prepared = Result { () throws(ImageDecodingError) in try source.prepareDecode(options: options).decode() }
                let direct = Result { () throws(ImageDecodingError) in try decoder.prepareDecode(bytes, options: options).decode() }
                #expect(prepared.error == direct.error, "\(bytes.count) bytes of \(label)", sourceLocation: sourceLocation)
            }
        }
    }
}
