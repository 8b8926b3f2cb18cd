import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// Walking an animation frame by frame gives what a whole decode gives.
@Suite("GIF frame reader", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct GIFFrameReaderTests {
    static func frames(of reader: any ImageFrameReading) throws -> [ImageFrame] {
        var frames: [ImageFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test(
        "the reader yields the frames decode returns",
        arguments: [
            "gif/giflib/fire.gif", "gif/pillow/dispose_prev.gif", "gif/pillow/dispose_bgnd_transparency.gif",
            "gif/image-gif/samples/moon_impact.gif",
        ])
    func sameAsDecode(_ path: String) throws {
        let data = try Corpus.data(path)
        let image = try GIFDecoder().decode(data)
        let reader = try GIFDecoder().makeFrameReader(for: data, options: .default)
        let frames = try Self.frames(of: reader)
        #expect(frames.count == image.frames.count)
        #expect(frames.map(\.bitmap) == image.frames.map(\.bitmap))
        #expect(frames.map(\.duration) == image.frames.map(\.duration))
        #expect(reader.loopCount == image.loopCount)
        #expect(reader.info.size == image.size)
        #expect(reader.info.format == .gif)
        #expect(try reader.nextFrame() == nil, "stays at the end")
    }

    @Test("frames handed out are copies: later frames do not change them")
    func framesAreCopies() throws {
        let reader = try GIFDecoder().makeFrameReader(for: Corpus.data("gif/pillow/dispose_none.gif"), options: .default)
        let first = try #require(try reader.nextFrame())
        let snapshot = first.bitmap.packedBytes
        _ = try Self.frames(of: reader)
        #expect(first.bitmap.packedBytes == snapshot)
    }

    @Test("firstFrameOnly gives frame 0 alone", arguments: ["gif/giflib/fire.gif", "gif/pillow/decompression_bomb_extents.gif"])
    func firstFrameOnly(_ path: String) throws {
        let data = try Corpus.data(path)
        let all = try GIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 1 << 40))
        let first = try GIFDecoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.bitmap == all.bitmap)
        #expect(first.frames[0].duration == all.frames[0].duration, "still animated timing")
    }

    @Test("info says whether the first frame is interlaced")
    func progressiveInfo() throws {
        let interlaced = try GIFDecoder().makeFrameReader(for: Corpus.data("gif/giflib/treescap-interlaced.gif"), options: .default)
        let plain = try GIFDecoder().makeFrameReader(for: Corpus.data("gif/giflib/treescap.gif"), options: .default)
        #expect(interlaced.info.isProgressive)
        #expect(!plain.info.isProgressive)
    }

    @Test("a reader over a file cut mid-frame yields the whole frames, then throws truncated")
    func truncatedFile() throws {
        let reader = try GIFDecoder().makeFrameReader(for: Corpus.data("gif/derived/welcome2_trunc_half.gif"), options: .default)
        var count = 0
        do {
            while try reader.nextFrame() != nil { count += 1 }
            Issue.record("no error after \(count) frames")
        } catch {
            #expect(error.code == .truncated)
        }
        #expect(count == 3)
    }
}
