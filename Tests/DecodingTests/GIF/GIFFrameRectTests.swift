import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageResources
import WebImageTestSupport

@testable import WebImageDecoding

/// A GIF frame is decoded from its own rectangle and drawn onto the part of it on the
/// screen: what composing a frame costs, and what a decode reserves and a frame source
/// holds for the copy a "restore to previous" frame needs, follow the frame's rectangle,
/// not the screen.
@Suite("GIF: frames follow their own rectangles", .timeLimit(.minutes(1)))
struct GIFFrameRectTests {
    static let screen = 4000
    static let canvas = screen * screen * 4

    /// Seven frames of at most 10x10 on a 4000x4000 screen: inside it, past its corner,
    /// past its right edge, off it altogether, interlaced, empty; the ones that ask for
    /// the canvas back are at most 10x10 on the screen.
    static func smallFramesOnALargeScreen() throws -> Data {
        func frame(
            x: Int, y: Int, width: Int = 10, height: Int = 10, disposal: GIFFixtureDisposal, interlaced: Bool = false
        ) -> GIFFixtureFrame {
            GIFFixtureFrame(
                indices: (0..<(width * height)).map { UInt8(($0 * 7 + x) % 4) }, x: x, y: y, width: width, height: height,
                disposal: disposal, transparentIndex: 3, interlaced: interlaced)
        }
        return try GIFFixtureEncoder().encode(
            GIFFixtureAnimation(
                width: screen, height: screen, globalPalette: [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255],
                frames: [
                    frame(x: 0, y: 0, disposal: .none),
                    frame(x: 1200, y: 800, disposal: .previous),
                    frame(x: 3995, y: 3995, disposal: .previous),
                    frame(x: 3998, y: 20, width: 40, height: 10, disposal: .previous),
                    frame(x: 5000, y: 5000, width: 500, height: 500, disposal: .previous),
                    frame(x: 1203, y: 804, height: 13, disposal: .background, interlaced: true),
                    frame(x: 10, y: 10, width: 0, height: 0, disposal: .previous),
                ]))
    }

    /// On demand (the frames come to far more than the eager limit), charging `budget`,
    /// with room in the limits for seven frames of the screen.
    static func options(charging budget: MemoryBudget? = nil) -> DecodeOptions {
        DecodeOptions(maxPixelCount: 1 << 28, frameBuffering: FrameBuffering(memoryBudget: budget))
    }

    @Test("the estimate counts the canvas, a 10x10 copy for the frames restored and the first frame: no second canvas")
    func estimateFollowsTheRectangles() throws {
        let data = try Self.smallFramesOnALargeScreen()
        let estimate = try #require(GIFDecoder().estimatedMemory(decoding: data, options: Self.options()))
        #expect(estimate == Self.canvas + 10 * 10 * 4 + Self.canvas)
        #expect(GIFDecoder().prepareDecode(data, options: Self.options()).estimatedMemory == estimate)
    }

    @Test("a frame source holds the canvas and a 10x10 copy in the budget, and gives both back")
    func chargeFollowsTheRectangles() throws {
        let budget = MemoryBudget(capacity: 4 << 30)
        let data = try Self.smallFramesOnALargeScreen()
        do {
            let image = try GIFDecoder().decode(data, options: Self.options(charging: budget))
            let source = try #require(image.frameSource as? AnimationFrameSource<GIFFrameReader>)
            _ = try source.frame(at: 6)
            // A frame of the screen is over the buffer's and the snapshots' bounds: none is kept.
            #expect(source.bufferedByteCount == 0)
            #expect(budget.inUse == Self.canvas + 10 * 10 * 4)
            source.releaseBuffer()
            #expect(budget.inUse == 0)
            _ = try source.frame(at: 3)
            #expect(budget.inUse == Self.canvas + 10 * 10 * 4)
        }
        #expect(budget.inUse == 0)
    }

    @Test("frames reached on demand, in any order, are the frames a walk through the file gives")
    func framesEqualTheFullDecode() throws {
        let data = try Self.smallFramesOnALargeScreen()
        let image = try GIFDecoder().decode(data, options: Self.options())
        let source = try #require(image.frameSource as? AnimationFrameSource<GIFFrameReader>)
        // One frame of the screen at a time: the walk's frame `index`, then the source's.
        for index in [6, 2, 5, 0, 3, 1, 4] {
            let reader = try GIFDecoder().makeFrameReader(for: data, options: Self.options())
            var walked: ImageFrame?
            for _ in 0...index { walked = try reader.nextFrame() }
            let expected = try #require(walked).bitmap.packedBytes
            #expect(try source.frame(at: index).bitmap.packedBytes == expected, "frame \(index)")
        }
    }
}
