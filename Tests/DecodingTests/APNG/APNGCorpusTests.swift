import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// The APNG files of the corpus (Pillow's test images, 128x64): every frame composed
/// with its dispose and blend operations; files whose animation chunks are wrong show
/// their still default image, as browsers do.
@Suite("APNG: the corpus", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct APNGCorpusTests {
    static let green: [UInt8] = [0, 255, 0, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    private func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let bytes = bitmap.packedBytes
        let at = (y * bitmap.width + x) * 4
        return Array(bytes[at..<(at + 4)])
    }

    private func decode(_ name: String) throws -> DecodedImage {
        try PNGDecoder().decode(try Corpus.data("png/pillow/apng/\(name)"))
    }

    @Test(
        "the last frame shows what the file's design says (green where right, red where not)",
        arguments: [
            ("blend_op_over.png", 2, green), ("dispose_op_previous.png", 3, green), ("dispose_op_background.png", 3, clear),
            ("single_frame_default.png", 1, green),
            // Its second frame is opaque blue, drawn over the first (yellow).
            ("num_plays.png", 2, [0, 0, 255, 255]),
        ])
    func lastFrame(_ name: String, frames: Int, expected: [UInt8]) throws {
        let image = try decode(name)
        #expect(image.frames.count == frames, "acTL's count; Pillow counts the hidden default image too")
        let last = try #require(image.frames.last).bitmap
        #expect(pixel(last, 0, 0) == expected)
        #expect(pixel(last, 64, 32) == expected)
    }

    @Test("a 16-bit animation: its second frame, blue at half alpha, is blended over the first, opaque black")
    func sixteenBit() throws {
        let image = try decode("mode_16bit.png")
        #expect(image.frames.count == 2)
        #expect(pixel(image.frames[0].bitmap, 0, 0) == [0, 0, 0, 255])
        let last = try #require(image.frames.last).bitmap
        // Over: alpha 128 + 255 x (1 - 128/255) = 255; blue 255 x 128/255 = 128.
        #expect(pixel(last, 0, 0) == [0, 0, 128, 255])
        #expect(pixel(last, 64, 32) == [0, 0, 128, 255])
        #expect(image.frames.map(\.storedDelay) == [.milliseconds(100), .seconds(1)], "10/100 s, then 100/100 s")
    }

    @Test("loop counts: num_plays as written, 0 forever")
    func loops() throws {
        #expect(try decode("num_plays.png").loopCount == 0)
        #expect(try decode("blend_op_over.png").loopCount == 1)
    }

    @Test(
        "broken animation chunks give the still default image, as browsers show it", arguments: ["chunk_no_fdat.png", "sequence_gap.png"])
    func brokenAnimation(_ name: String) throws {
        let image = try decode(name)
        #expect(image.frames.count == 1)
        let entry = try #require(Corpus.manifest.first { $0.file == "png/pillow/apng/\(name)" })
        #expect(referenceHash(of: image.bitmap) == entry.referenceHash)
    }

    @Test("no IDAT at all is an error")
    func numFramesZero() throws {
        #expect(throws: ImageDecodingError.self) { try decode("syntax_num_frames_zero.png") }
    }
}
