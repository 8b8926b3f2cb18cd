import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// Where a long animation's frames live: freed frames must go back to the system, or the
/// memory budget's bound does not hold (glibc keeps freed blocks in the arena of the
/// thread that decoded them, and the next decode runs on another thread). These decode
/// every frame (`FrameBuffering.allFrames`), as a caller that asks for them does.
@Suite("GIF frame storage")
struct GIFFrameStorageTests {
    /// 40 frames of 512x512 RGBA: 1 MiB each.
    static let animation = RepeatedStructures.gif(onePixelFrames: 40, screen: 512)

    @Test("an animation of more than 32 MiB of frames has every frame mapped on its own, the first included")
    func longAnimationsAreMappedOnTheirOwn() throws {
        // From malloc, the first frames stayed in the decoding thread's arena once freed.
        let image = try GIFDecoder().decode(Self.animation, options: DecodeOptions(frameBuffering: .allFrames))
        try #require(image.frames.count == 40)
        #if os(Linux)
            #expect(image.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
    }

    @Test("the first frame alone of a long animation comes from malloc: it is 1 MiB, not 40")
    func firstFrameOfALongAnimationStaysInMalloc() throws {
        let image = try GIFDecoder().decode(Self.animation, options: DecodeOptions(firstFrameOnly: true))
        try #require(image.frames.count == 1)
        #expect(!image.frames[0].bitmap.storage.isMappedOnItsOwn)
    }

    @Test("a frame mapped on its own holds the same pixels as one from malloc")
    func mappedFramesHoldTheirPixels() throws {
        let image = try GIFDecoder().decode(Self.animation, options: DecodeOptions(frameBuffering: .allFrames))
        let first = try #require(image.frames.first?.bitmap)
        let last = try #require(image.frames.last?.bitmap)
        // Each frame draws one pixel on a transparent screen: the rest of every frame is
        // the same, whichever allocator holds it.
        #expect(first.size == last.size)
        let differing = first.withUnsafeBytes { a in
            last.withUnsafeBytes { b in zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } }
        }
        #expect(differing <= 8, "frames differ in \(differing) bytes")
    }

    @Test("a short animation's frames all come from malloc")
    func shortAnimationsStayInMalloc() throws {
        let image = try GIFDecoder().decode(
            RepeatedStructures.gif(onePixelFrames: 30, screen: 256), options: DecodeOptions(frameBuffering: .allFrames))
        #expect(image.frames.count == 30)
        #expect(image.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
    }

    @Test("scaled frames are counted at the size they are kept at: mapped while still over 32 MiB, from malloc below")
    func scaledFramesFollowTheRule() throws {
        // 40 frames of 768x768 are 90 MiB at full size.
        let animation = RepeatedStructures.gif(onePixelFrames: 40, screen: 768)
        // 55 MiB kept, then 10 MiB.
        let large = try GIFDecoder().decode(animation, options: DecodeOptions(maxPixelSize: 600, frameBuffering: .allFrames))
        let small = try GIFDecoder().decode(animation, options: DecodeOptions(maxPixelSize: 256, frameBuffering: .allFrames))
        try #require(large.frames.count == 40 && small.frames.count == 40)
        #expect(large.frames[0].bitmap.size == PixelSize(width: 600, height: 600))
        #if os(Linux)
            #expect(large.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
        #expect(small.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
    }
}
