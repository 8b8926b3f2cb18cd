import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// The whole corpus through the standard registry: the format is sniffed from the
/// bytes (a PNG named .jpg decodes as PNG), every file behaves as the manifest says,
/// and feeding any file in random slices ends in the same image as a whole decode.
@Suite("Conformance of the whole corpus through the registry", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct CorpusConformanceTests {
    static let registry = ImageDecoderRegistry.standard

    /// A still PNG is one frame (APNG files are APNGCorpusTests' to check); giflib's
    /// frame count is the reference for GIF where the notes give one.
    static func expectedFrames(_ entry: CorpusEntry) -> Int? {
        if entry.format == "png" { return 1 }
        return entry.frames
    }

    @Test("every file decodes, or fails, as the manifest says", arguments: Corpus.manifest)
    func wholeFile(entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        let result = Result.capture { try Self.registry.decode(data) }
        CorpusExpectation.check(
            entry, result: result, expectedFrames: entry.format == "gif" ? nil : Self.expectedFrames(entry),
            checksFramesAndPixels: !entry.isAPNG)
    }

    @Test(
        "fed in random slices, every valid file ends equal to its whole-file decode",
        arguments: Corpus.manifest.filter { $0.expected == .valid })
    func slicedEqualsWhole(entry: CorpusEntry) throws {
        let data = try Corpus.data(entry.file)
        let whole = try Self.registry.decode(data)
        let decoder = Self.registry.makeIncrementalDecoder(options: .default)
        let maxSlice = max(16, data.count / 40)
        for slice in data.randomSlices(maxSlice: maxSlice, seed: UInt64(data.count)) {
            try decoder.append(slice)
        }
        let final = try decoder.finish()
        #expect(final.frames.count == whole.frames.count)
        for (a, b) in zip(final.frames, whole.frames) {
            #expect(a.bitmap == b.bitmap)
        }
    }

    @Test("the manifest covers all three formats")
    func coverage() {
        let formats = Set(Corpus.manifest.map(\.format))
        #expect(formats == ["png", "jpeg", "gif"])
        #expect(Corpus.manifest.count > 500)
    }
}
