import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Every JPEG row of the conformance corpus, decoded as its manifest says.
@Suite("JPEG corpus conformance", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct JPEGCorpusTests {
    let decoder = JPEGDecoder()

    @Test(
        "each valid file decodes to the stated size and djpeg's exact pixels",
        arguments: JPEGTestData.entries.filter { $0.expected == .valid })
    func validFileMatchesReference(_ entry: CorpusEntry) throws {
        let image = try decoder.decode(try Corpus.data(entry.file))
        #expect(image.format == .jpeg)
        #expect(image.width == entry.width)
        #expect(image.height == entry.height)
        #expect(image.frames.count == 1)
        #expect(!image.isPartial)
        if let reference = entry.referenceHash {
            #expect(referenceHash(of: image.bitmap) == reference, "pixels differ from djpeg for \(entry.file)")
        }
    }

    @Test("each must-fail file throws", arguments: JPEGTestData.entries.filter { $0.expected == .mustFail })
    func mustFailFileThrows(_ entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        #expect(throws: ImageDecodingError.self) { try decoder.decode(data) }
    }

    @Test(
        "each either file gives an error or an image of the stated size",
        arguments: JPEGTestData.entries.filter { $0.expected == .either })
    func eitherFileDoesNotCrash(_ entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        do {
            let image = try decoder.decode(data)
            #expect(image.width == entry.width)
            #expect(image.height == entry.height)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test("the corpus has JPEG rows to check")
    func corpusHasJPEGs() {
        #expect(JPEGTestData.entries.count >= 70)
        #expect(JPEGTestData.entries.filter { $0.referenceHash != nil }.count >= 50)
    }
}
