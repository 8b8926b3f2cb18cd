import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Every GIF of the conformance corpus behaves as its manifest row says.
@Suite("GIF corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct GIFCorpusTests {
    static let rows = Corpus.manifest.filter { $0.format == "gif" }

    /// The specific error each must-fail or refused file gives, as reasoned from the file.
    static let expectedErrors: [String: ImageDecodingError.Code] = [
        "gif/derived/empty.gif": .empty,
        "gif/derived/header_only.gif": .truncated,
        "gif/derived/treescap_bad_signature.gif": .invalidHeader,
        "gif/derived/treescap_screen_65535.gif": .tooLarge,
        "gif/derived/treescap_trunc_in_lzw.gif": .truncated,
        "gif/derived/welcome2_trunc_half.gif": .truncated,
        "gif/pillow/zero_width.gif": .invalidDimensions,
        // Its image descriptor asks for an LZW code size of 143: the descriptor is damaged.
        "gif/pillow/decompression_bomb.gif": .corrupt,
        "gif/image-gif/crashtest/issue-96-small-codesize.gif": .invalidDimensions,
        "gif/image-gif/crashtest/issue-96-small-codesize-2.gif": .tooLarge,
        "gif/image-gif/crashtest/issue-117-out-of-range.gif": .corrupt,
        "gif/image-gif/stall/issue-101-infinite-empty-loop.gif": .tooLarge,
    ]

    @Test("corpus row", arguments: rows)
    func row(_ entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        let start = ContinuousClock.now
        let result = Result { () throws(ImageDecodingError) in try GIFDecoder().decode(data) }
        // Against hangs (the corpus has an endless-loop GIF): generous enough for a loaded
        // machine or the thread sanitizer, which run the big samples for seconds.
        #expect(ContinuousClock.now - start < .seconds(60), "\(entry.file) must decode or fail, not hang")

        if let code = Self.expectedErrors[entry.file] {
            #expect(throws: ImageDecodingError.self, "\(entry.file)") { try result.get() }
            if case .failure(let error) = result {
                #expect(error.code == code, "\(entry.file): \(error)")
                #expect(error.format == .gif)
            }
            return
        }
        CorpusExpectation.check(entry, result: result, expectedFrames: Self.expectedFrames(entry))
        if case .success(let image) = result {
            #expect(image.orientation == .up)
            #expect(image.format == .gif)
        }
    }

    /// The manifest's frame count, or giflib's when the notes say it differs.
    static func expectedFrames(_ entry: CorpusEntry) -> Int? {
        if let range = entry.notes.range(of: #"giflib read (\d+) frame"#, options: .regularExpression) {
            let digits = entry.notes[range].filter(\.isNumber)
            return Int(digits)
        }
        return entry.frames
    }
}
