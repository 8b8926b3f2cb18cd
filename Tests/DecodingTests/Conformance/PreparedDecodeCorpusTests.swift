import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// The whole corpus through the registry's prepared decode: every file, valid or not,
/// ends as a decode of its bytes ends (the same image or the same error), and the
/// estimate is the decoder's own and covers the pixels decoded.
@Suite("Prepared decodes of the whole corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct PreparedDecodeCorpusTests {
    static let registry = ImageDecoderRegistry.standard

    @Test("a prepared decode ends as the decode of the same bytes", arguments: Corpus.manifest)
    func sameOutcome(entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        for options in [DecodeOptions.default, DecodeOptions(maxPixelSize: 64)] {
            let decoded = Result { () throws(ImageDecodingError) in try Self.registry.decode(data, options: options) }
            let preparation = Result { () throws(ImageDecodingError) in try Self.registry.prepareDecode(data, options: options) }
            guard case .success(let prepared) = preparation else {
                #expect(preparation.error == decoded.error, "only finding a decoder fails before the decode")
                continue
            }
            #expect(prepared.estimatedMemory == Self.registry.estimatedMemory(decoding: data, options: options))
            let result = Result { () throws(ImageDecodingError) in try prepared.decode() }
            switch (result, decoded) {
            case (.success(let image), .success(let plain)):
                #expect(image.frames.map(\.bitmap) == plain.frames.map(\.bitmap), "\(entry)")
                let held = image.frames.reduce(0) { $0 + $1.bitmap.packedRowBytes * $1.bitmap.height }
                if let estimate = prepared.estimatedMemory, estimate > 0 {
                    #expect(estimate >= held, "\(entry): \(estimate) bytes estimated, \(held) decoded")
                }
            default:
                #expect(result.error == decoded.error, "\(entry)")
            }
        }
    }
}
