import Foundation
import Testing
import WebImageCore
import WebImageDecoding

/// Where an APNG's frames live: as for GIF and WebP, a long animation's freed frames
/// must go back to the system, or the memory budget's bound does not hold.
@Suite("APNG: frame storage")
struct APNGFrameStorageTests {
    /// A 512x512 first frame, then `count - 1` one-pixel frames: each composed frame is
    /// 1 MiB of RGBA.
    static func animation(frames count: Int) throws -> Data {
        let first = APNGBuilder.Frame(bitmap: try APNGBuilder.solid([255, 0, 0, 255], width: 512, height: 512))
        let dot = try APNGBuilder.solid([0, 0, 255, 255], width: 1, height: 1)
        let rest = (1..<count).map { APNGBuilder.Frame(bitmap: dot, x: $0, y: $0) }
        return try APNGBuilder(width: 512, height: 512, frames: [first] + rest).build()
    }

    @Test("an animation of more than 32 MiB of frames has every frame mapped on its own")
    func longAnimationsAreMapped() throws {
        let image = try PNGDecoder().decode(try Self.animation(frames: 40), options: DecodeOptions(frameBuffering: .allFrames))
        try #require(image.frames.count == 40)
        #if os(Linux)
            #expect(image.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
        let last = try #require(image.frames.last?.bitmap)
        #expect(last.withUnsafeBytes { Array($0[((39 * 512 + 39) * 4)..<((39 * 512 + 39) * 4 + 4)]) } == [0, 0, 255, 255])
    }

    @Test("a short animation, or a long one scaled below 32 MiB, keeps its frames in malloc")
    func shortOrScaledAnimationsStayInMalloc() throws {
        let short = try PNGDecoder().decode(try Self.animation(frames: 10), options: DecodeOptions(frameBuffering: .allFrames))
        #expect(short.frames.count == 10)
        #expect(short.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
        let scaled = try PNGDecoder().decode(
            try Self.animation(frames: 40), options: DecodeOptions(maxPixelSize: 256, frameBuffering: .allFrames))
        #expect(scaled.frames.count == 40)
        #expect(scaled.frames[0].bitmap.size == PixelSize(width: 256, height: 256))
        #expect(scaled.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
    }
}
