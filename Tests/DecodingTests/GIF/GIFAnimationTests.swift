import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// The corpus animations: every frame against Pillow where its composition rule is
/// ours, and the timing, looping and disposal the files call for.
@Suite("GIF animations", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
struct GIFAnimationTests {
    struct PillowFrame: Sendable {
        var frame: Int
        var hash: String
        var comparable: Bool
    }

    /// Pillow's frames by file (see Tools/TestSupport/Reference/gif_frame_hashes.py).
    static let pillowFrames: [String: [PillowFrame]] = {
        var table: [String: [PillowFrame]] = [:]
        for line in GIFPillowFrameHashes.tsv.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let frame = Int(fields[1]) else { continue }
            table[fields[0], default: []].append(PillowFrame(frame: frame, hash: fields[2], comparable: fields[3] == "yes"))
        }
        return table
    }()

    static func decode(_ path: String, options: DecodeOptions = .default) throws -> DecodedImage {
        try GIFDecoder().decode(Corpus.data(path), options: options)
    }

    static func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        GIFCompositionTests.pixel(bitmap, x, y)
    }

    @Test("every frame matches Pillow where the composition rules agree", arguments: pillowFrames.keys.sorted())
    func matchesPillow(_ path: String) throws {
        let expected = try #require(Self.pillowFrames[path])
        let image = try Self.decode(path)
        #expect(image.frameCount == expected.count, "\(path)")
        // Long files are composed on demand: frame(at:) answers for either form.
        for reference in expected where reference.comparable && reference.frame < image.frameCount {
            #expect(referenceHash(of: try image.frame(at: reference.frame).bitmap) == reference.hash, "\(path) frame \(reference.frame)")
        }
    }

    @Test("the fixture compares most frames, and excludes only what Pillow composes differently")
    func fixtureCoverage() {
        let all = Self.pillowFrames.values.flatMap { $0 }
        #expect(all.count > 800)
        #expect(all.filter(\.comparable).count > all.count - 10)
        let excluded = Set(Self.pillowFrames.filter { $0.value.contains { !$0.comparable } }.keys)
        #expect(
            excluded == [
                "gif/pillow/dispose_bgnd.gif", "gif/pillow/background_outside_palette.gif", "gif/pillow/test_extents.gif",
            ])
    }

    @Test("fire.gif: 33 frames of 50 ms, looping forever")
    func fire() throws {
        let image = try Self.decode("gif/giflib/fire.gif")
        #expect(image.frames.count == 33)
        #expect(image.loopCount == 0)
        #expect(image.frames.allSatisfy { $0.storedDelay == .milliseconds(50) && $0.duration == .milliseconds(50) })
        #expect(image.totalDuration == .milliseconds(1650))
    }

    @Test("welcome2.gif: six 1 s frames, loop count 1000, transparent where disposal 2 cleared")
    func welcome2() throws {
        let image = try Self.decode("gif/giflib/welcome2.gif")
        #expect(image.frames.count == 6)
        #expect(image.loopCount == 1000)
        #expect(image.frames.map(\.duration) == Array(repeating: .seconds(1), count: 6))
        #expect(Self.pixel(image.frames[1].bitmap, 0, 0)[3] == 0)
        #expect(Self.pixel(image.frames[1].bitmap, 50, 25) == [222, 106, 106, 255])
    }

    @Test("a delay of 0 plays as 100 ms (dispose_prev.gif frame 0)")
    func zeroDelay() throws {
        let image = try Self.decode("gif/pillow/dispose_prev.gif")
        #expect(image.frames[0].storedDelay == .zero)
        #expect(image.frames[0].duration == .milliseconds(100))
        #expect(image.frames[1].duration == .seconds(1))
    }

    @Test("two loop extensions: the first one counts")
    func duplicateLoops() throws {
        #expect(try Self.decode("gif/pillow/duplicate_number_of_loops.gif").loopCount == 2)
        #expect(try Self.decode("gif/pillow/dispose_prev_first_frame.gif").loopCount == 1)
    }

    /// In the dispose_* files frame 1 paints a 32x32 square at (5,10) and frame 2 one at
    /// (35,30); (20,25) is inside the first square only, so frame 2 shows there what
    /// frame 1's disposal left.
    @Test("disposal none keeps frame 1's square under frame 2")
    func disposeNone() throws {
        let frames = try Self.decode("gif/pillow/dispose_none.gif").frames.map(\.bitmap)
        #expect(Self.pixel(frames[1], 20, 25) != Self.pixel(frames[0], 20, 25))
        #expect(Self.pixel(frames[2], 20, 25) == Self.pixel(frames[1], 20, 25))
    }

    @Test("disposal background clears frame 1's square to transparent")
    func disposeBackground() throws {
        let frames = try Self.decode("gif/pillow/dispose_bgnd.gif").frames.map(\.bitmap)
        #expect(Self.pixel(frames[1], 20, 25)[3] == 255)
        #expect(Self.pixel(frames[2], 20, 25) == [0, 0, 0, 0])
        #expect(Self.pixel(frames[2], 4, 9) == Self.pixel(frames[0], 4, 9), "outside the square frame 0 stays")
    }

    @Test("disposal previous puts frame 0 back under frame 1's square")
    func disposePrevious() throws {
        let frames = try Self.decode("gif/pillow/dispose_prev.gif").frames.map(\.bitmap)
        #expect(Self.pixel(frames[1], 20, 25) != Self.pixel(frames[0], 20, 25))
        #expect(Self.pixel(frames[2], 20, 25) == Self.pixel(frames[0], 20, 25))
        #expect(Self.pixel(frames[2], 50, 45) != Self.pixel(frames[0], 50, 45), "frame 2's own square is drawn")
    }

    @Test("a frame whose extents lie far off the screen draws nothing (decompression_bomb_extents.gif)")
    func offScreenFrame() throws {
        let image = try Self.decode("gif/pillow/decompression_bomb_extents.gif")
        #expect(image.frames.count == 2)
        #expect(image.frames[1].bitmap == image.frames[0].bitmap)
    }

    @Test("the giflib-rejected trailer-less welcome2 keeps its 6 frames")
    func noTrailer() throws {
        let image = try Self.decode("gif/derived/welcome2_no_trailer.gif")
        let reference = try Self.decode("gif/giflib/welcome2.gif")
        #expect(image.frames.count == 6)
        #expect(image.frames.map(\.bitmap) == reference.frames.map(\.bitmap))
    }

    @Test("an empty comment extension does not stop the decode (giflib's DGifSlurp fails on it)")
    func emptyComment() throws {
        let image = try Self.decode("gif/pillow/hopper_zero_comment_subblocks.gif")
        #expect(image.bitmap == (try Self.decode("gif/pillow/hopper.gif")).bitmap, "Pillow decodes the same pixels as hopper.gif")
    }

    @Test("maxPixelSize scales every frame and keeps the frame count and timing")
    func downsampledAnimation() throws {
        let full = try Self.decode("gif/pillow/iss634.gif")
        let small = try Self.decode("gif/pillow/iss634.gif", options: DecodeOptions(maxPixelSize: 64))
        #expect(small.frames.count == full.frames.count)
        #expect(small.frames.allSatisfy { $0.bitmap.size == PixelSize(width: 64, height: 64) })
        #expect(small.sourceSize == PixelSize(width: 245, height: 245))
        #expect(small.frames.map(\.duration) == full.frames.map(\.duration))
    }

    @Test("gray8 output converts every frame")
    func grayAnimation() throws {
        let image = try Self.decode("gif/giflib/fire.gif", options: DecodeOptions(pixelFormat: .gray8))
        #expect(image.frames.count == 33)
        #expect(image.frames.allSatisfy { $0.bitmap.pixelFormat == .gray8 && $0.bitmap.bytesPerRow == 30 })
    }
}
