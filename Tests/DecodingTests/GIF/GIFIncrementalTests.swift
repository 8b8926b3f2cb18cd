import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Feeding a GIF as it arrives: partial first frames, then the one-shot result.
@Suite("GIF incremental", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct GIFIncrementalTests {
    @Test(
        "random small slices: full-size partial images, then the one-shot image",
        arguments: [
            "gif/giflib/treescap-interlaced.gif", "gif/giflib/welcome2.gif", "gif/giflib/porsche.gif",
            "gif/image-gif/samples/interlaced.gif", "gif/pillow/transparent.gif",
        ])
    func randomSlices(_ path: String) throws {
        let data = try Corpus.data(path)
        let expected = try GIFDecoder().decode(data)
        let decoder = GIFDecoder().makeIncrementalDecoder(options: .default)
        #expect(decoder.info == nil)
        #expect(try decoder.partialImage() == nil)
        var offset = 0
        var lastRevision = 0
        var partials = 0
        for slice in data.randomSlices(maxSlice: max(1, data.count / 12), seed: UInt64(data.count)) {
            try decoder.append(slice)
            offset += slice.count
            if offset >= 13 { #expect(decoder.info?.size == expected.size) }
            #expect(decoder.revision >= lastRevision)
            if decoder.revision > lastRevision, offset < data.count {
                lastRevision = decoder.revision
                let partial = try #require(try decoder.partialImage(), "revision \(lastRevision) of \(path)")
                #expect(partial.isPartial)
                #expect(partial.size == expected.size)
                #expect(partial.frames.count == 1)
                partials += 1
            }
        }
        #expect(partials > 0, "\(path) showed something before the end")
        let final = try decoder.finish()
        #expect(!final.isPartial)
        #expect(final.frames.map(\.bitmap) == expected.frames.map(\.bitmap))
        #expect(final.loopCount == expected.loopCount)
        #expect(throws: ImageDecodingError.self) { try decoder.append(Data([0])) }
    }

    @Test("a partial image shows the rows received and leaves the rest transparent")
    func partialRows() throws {
        let data = try Corpus.data("gif/giflib/porsche.gif")
        let full = try GIFDecoder().decode(data).bitmap
        let decoder = GIFDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data.prefix(data.count / 2))
        let partial = try #require(try decoder.partialImage()).bitmap
        let rowBytes = partial.packedRowBytes
        let pixels = partial.packedBytes
        let reference = full.packedBytes
        #expect(pixels[0..<rowBytes] == reference[0..<rowBytes], "the first row is final")
        let lastRow = pixels[(pixels.count - rowBytes)...]
        #expect(lastRow.allSatisfy { $0 == 0 }, "the last row has not arrived")
        #expect(try decoder.partialImage()?.bitmap == partial, "same revision, same image")
    }

    @Test("an interlaced first frame shows whole at low detail after its first pass")
    func interlacedLowDetail() throws {
        let data = try Corpus.data("gif/image-gif/samples/interlaced.gif")
        let decoder = GIFDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data.prefix(data.count / 4))
        #expect(decoder.info?.isProgressive == true)
        let partial = try #require(try decoder.partialImage()).bitmap
        let pixels = partial.packedBytes
        // The image is opaque: with rows repeated, no row of the partial is empty.
        let opaqueRows = (0..<partial.height).filter { y in pixels[y * partial.packedRowBytes + 3] == 255 }
        #expect(opaqueRows.count == partial.height)
    }

    @Test("bad data is refused on append, and the decoder is then finished")
    func badData() throws {
        let signature = GIFDecoder().makeIncrementalDecoder(options: .default)
        #expect(throws: ImageDecodingError.self) { try signature.append(Data("PNG89a".utf8)) }
        #expect(throws: ImageDecodingError.self) { try signature.partialImage() }

        let zero = GIFDecoder().makeIncrementalDecoder(options: .default)
        var bytes = try Corpus.data("gif/pillow/zero_width.gif")
        do {
            try zero.append(bytes)
            Issue.record("a zero-width screen was accepted")
        } catch {
            #expect(error.code == .invalidDimensions)
        }

        let huge = GIFDecoder().makeIncrementalDecoder(options: .default)
        bytes = try Corpus.data("gif/derived/treescap_screen_65535.gif")
        do {
            try huge.append(bytes.prefix(20))
            Issue.record("a 65535x65535 screen was accepted")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test("finish on a file cut mid-frame is truncated")
    func truncatedFinish() throws {
        let decoder = GIFDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(Corpus.data("gif/derived/welcome2_trunc_half.gif"))
        #expect(try decoder.partialImage() != nil)
        do {
            _ = try decoder.finish()
            Issue.record("a cut file finished")
        } catch {
            #expect(error.code == .truncated)
        }
    }

    @Test("through the registry, the sniffing decoder hands GIF bytes to this decoder")
    func viaRegistry() throws {
        let data = try Corpus.data("gif/giflib/fire.gif")
        let registry = ImageDecoderRegistry(decoders: [GIFDecoder()])
        let decoder = registry.makeIncrementalDecoder(options: .default)
        for start in stride(from: 0, to: data.count, by: 97) {
            try decoder.append(data[start..<min(data.count, start + 97)])
        }
        #expect(try decoder.finish().frames.count == 33)
        #expect(try registry.decode(data).frames.count == 33)
    }
}
