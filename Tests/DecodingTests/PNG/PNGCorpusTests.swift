import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

@Suite("PNG decoding of the conformance corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct PNGCorpusTests {
    static let entries = Corpus.manifest.filter { $0.format == "png" }

    @Test("every PNG in the manifest decodes, or fails, as the manifest says", arguments: entries)
    func conformance(entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        // A still PNG is one frame; APNG files' frames and pixels are APNGCorpusTests' to check.
        CorpusExpectation.check(
            entry, result: .capture { try PNGDecoder().decode(data) }, expectedFrames: 1, checksFramesAndPixels: !entry.isAPNG)
    }

    @Test("the corpus has PNG files of every expectation")
    func corpusCoverage() {
        #expect(Self.entries.count > 400)
        #expect(Self.entries.contains { $0.expected == .mustFail })
    }
}
