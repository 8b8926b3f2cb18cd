import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

@Suite("PNG incremental decoding", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct PNGIncrementalTests {
    /// Feeds `data` in random slices, collecting a partial image whenever the
    /// decoder's revision moves.
    static func feed(_ data: Data, seed: UInt64, maxSlice: Int = 64) throws -> (partials: [DecodedImage], final: DecodedImage) {
        let decoder = PNGDecoder().makeIncrementalDecoder(options: .default)
        var partials: [DecodedImage] = []
        var seen = 0
        for slice in data.randomSlices(maxSlice: maxSlice, seed: seed) {
            try decoder.append(slice)
            if decoder.revision != seen, let partial = try decoder.partialImage() {
                seen = decoder.revision
                partials.append(partial)
            }
        }
        return (partials, try decoder.finish())
    }

    @Test(
        "a plain PNG fed in small slices shows its rows as they arrive and ends equal to a whole decode",
        arguments: ["png/pngsuite/basn2c08.png", "png/pngsuite/basn6a16.png", "png/pillow/hopper.png"])
    func plainRowsArrive(file: String) throws {
        let data = try Corpus.data(file)
        let (partials, final) = try Self.feed(data, seed: 7)
        let whole = try PNGDecoder().decode(data)
        #expect(final.bitmap == whole.bitmap)
        #expect(!final.isPartial)
        #expect(partials.count > 1, "rows should become visible before the end")
        for partial in partials.dropLast() {
            #expect(partial.size == whole.size, "partial images are full size")
        }
        #expect(partials.contains { $0.isPartial })
    }

    @Test(
        "an interlaced PNG shows the whole picture after each Adam7 pass",
        arguments: ["png/pngsuite/basi2c08.png", "png/pngsuite/basi6a08.png", "png/pngsuite/basi0g01.png"])
    func interlacedPasses(file: String) throws {
        let data = try Corpus.data(file)
        let decoder = PNGDecoder().makeIncrementalDecoder(options: .default)
        var revisions: Set<Int> = []
        var partials: [DecodedImage] = []
        for slice in data.randomSlices(maxSlice: 4, seed: 11) {
            try decoder.append(slice)
            if !revisions.contains(decoder.revision), let partial = try decoder.partialImage() {
                revisions.insert(decoder.revision)
                partials.append(partial)
            }
        }
        #expect(decoder.info?.isProgressive == true)
        let final = try decoder.finish()
        #expect(final.bitmap == (try PNGDecoder().decode(data)).bitmap)
        #expect(partials.filter(\.isPartial).count >= 4, "a preview per completed pass")
        // Early previews fill blocks from their known top-left pixel (2x2 at least
        // until pass 5), rather than showing scattered dots.
        let first = try #require(partials.first { $0.isPartial })
        let bytes = first.bitmap.packedBytes
        let rowBytes = first.width * 4
        #expect(Array(bytes[0..<4]) == Array(bytes[(rowBytes + 4)..<(rowBytes + 8)]))
    }

    @Test("data that stops early cannot finish", arguments: [1, 100, 2000])
    func truncatedFinish(cut: Int) throws {
        let data = try Corpus.data("png/pillow/hopper.png")
        let decoder = PNGDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data.prefix(cut))
        #expect(throws: ImageDecodingError.self) { try decoder.finish() }
        do {
            _ = try PNGDecoder().makeIncrementalDecoder(options: .default).finish()
            Issue.record("finishing with no data must fail")
        } catch {
            #expect(error.code == .truncated)
        }
    }

    @Test("a decoder is done after finish and after an error")
    func stateAfterEnd() throws {
        let data = try Corpus.data("png/pngsuite/basn0g08.png")
        let decoder = PNGDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data)
        _ = try decoder.finish()
        #expect(throws: ImageDecodingError(.invalidState, "append after finish", format: .png)) { try decoder.append(data) }

        let broken = PNGDecoder().makeIncrementalDecoder(options: .default)
        var corrupt = [UInt8](data)
        corrupt[1] = 0  // signature damage
        #expect(throws: ImageDecodingError.self) { try broken.append(Data(corrupt)) }
        #expect(throws: ImageDecodingError.self) { try broken.append(Data([0])) }
    }
}
