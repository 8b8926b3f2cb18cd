import Foundation
import Testing
import WebImageFuzzing
import WebImageTestSupport

/// Each decoding harness once over the conformance corpus, so that `make test` keeps
/// the harnesses working and their invariants true on real files between fuzz runs.
@Suite("Fuzz harnesses over the corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct CorpusHarnessTests {
    /// Whether the manifest says the file fits under the harnesses' pixel limit.
    static func fitsLimit(_ entry: CorpusEntry) -> Bool {
        guard let width = entry.width, let height = entry.height else { return false }
        return width * height * max(1, entry.frames ?? 1) <= FuzzTarget.decodePixelLimit
    }

    /// A format's harness accepts every valid file under the limit and refuses every
    /// must-fail file (files over the limit may go either way: `.tooLarge`).
    @Test(
        "each decoder harness accepts the valid files and refuses the must-fail ones",
        arguments: [FuzzTarget.png, .jpeg, .gif])
    func decoderHarness(target: FuzzTarget) throws {
        var accepted = 0
        var expectedAccepted = 0
        for entry in Corpus.manifest where entry.format == target.rawValue {
            let outcome = target.run(try Corpus.data(entry.file))
            switch entry.expected {
            case .valid where Self.fitsLimit(entry):
                expectedAccepted += 1
                #expect(outcome.isAccepted, "\(entry.file): \(outcome)")
            case .mustFail:
                #expect(!outcome.isAccepted, "\(entry.file): \(outcome)")
            default:
                break
            }
            if outcome.isAccepted { accepted += 1 }
        }
        #expect(expectedAccepted > 10)
        #expect(accepted >= expectedAccepted)
    }

    /// Slices chosen from each file, partial images on the way, compared with a
    /// one-shot decode: the small valid files of every format, and every must-fail file.
    @Test("the incremental harness over small valid and all must-fail files")
    func incrementalHarness() throws {
        let entries = Corpus.manifest.filter {
            $0.expected == .mustFail || ($0.expected == .valid && Self.fitsLimit($0) && ($0.width ?? 0) * ($0.height ?? 0) <= 64 * 64)
        }
        var accepted = 0
        var expectedAccepted = 0
        for entry in entries {
            let outcome = FuzzTarget.incremental.run(try Corpus.data(entry.file))
            if entry.expected == .valid {
                expectedAccepted += 1
                #expect(outcome.isAccepted, "\(entry.file): \(outcome)")
            } else {
                #expect(!outcome.isAccepted, "\(entry.file): \(outcome)")
            }
            if outcome.isAccepted { accepted += 1 }
        }
        #expect(expectedAccepted > 50)
        #expect(accepted == expectedAccepted)
    }

    /// Every file is sniffed, handed to the registry and tried by every decoder; valid
    /// files that fit the sniff harness's small limit are decoded by their own decoder.
    @Test("the sniff harness over every file")
    func sniffHarness() throws {
        var decoded = 0
        for entry in Corpus.manifest {
            if FuzzTarget.sniff.run(try Corpus.data(entry.file)).isAccepted { decoded += 1 }
        }
        #expect(decoded > 100)
    }
}
