import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageResources

@testable import WebImageDecoding

/// Animated PNG composed on demand: the eager decode's frames, with every dispose and
/// blend operation, reached in any order.
@Suite("Frame sources: animated PNG")
struct APNGFrameSourceTests {
    /// `count` frames on a 32x32 canvas: 8x8 regions with translucent pixels, cycling
    /// through the dispose operations (none, background, previous) and both blends;
    /// the first and every fifth frame cover the canvas with "source" blending.
    static func wanderingAPNG(frames count: Int) throws -> Data {
        var frames: [APNGBuilder.Frame] = []
        for index in 0..<count {
            let covers = index == 0 || index % 5 == 4
            let side = covers ? 32 : 8
            let bitmap = try ImageBitmap(width: side, height: side, pixelFormat: .rgba8) { bytes, stride in
                for y in 0..<side {
                    for x in 0..<side {
                        let at = y * stride + x * 4
                        bytes[at] = UInt8((index * 37 + x * 8) % 256)
                        bytes[at + 1] = UInt8((index * 11 + y * 8) % 256)
                        bytes[at + 2] = UInt8(index % 256)
                        bytes[at + 3] = (x + y + index) % 3 == 0 ? 255 : 128
                    }
                }
            }
            frames.append(
                APNGBuilder.Frame(
                    bitmap: bitmap, x: covers ? 0 : (index * 5) % 24, y: covers ? 0 : (index * 3) % 24,
                    delay: (UInt16(index % 4), 100), dispose: UInt8(index % 3), blend: covers ? 0 : UInt8(index % 2)))
        }
        return try APNGBuilder(width: 32, height: 32, plays: 3, frames: frames).build()
    }

    @Test("every frame, reached in any order, equals the eager decode's frame")
    func framesEqualTheEagerDecode() throws {
        let data = try Self.wanderingAPNG(frames: 50)
        let eager = try PNGDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        let lazy = try PNGDecoder().decode(
            data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0, snapshotInterval: 3)))
        let source = try #require(lazy.frameSource as? AnimationFrameSource<APNGFrameReader>)
        #expect(eager.frames.count == 50)
        #expect(lazy.frameCount == 50)
        #expect(lazy.loopCount == 3)
        var generator = SeededGenerator(seed: 3)
        let order = Array(0..<50).shuffled(using: &generator) + Array((0..<50).reversed())
        for index in order {
            let frame = try lazy.frame(at: index)
            #expect(frame.bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            #expect(frame.duration == eager.frames[index].duration)
            #expect(source.storedDelay(ofFrame: index) == eager.frames[index].storedDelay)
        }
    }

    @Test(
        "a source charges its canvas and the copy of the largest region disposed to \"previous\", and gives them back",
        arguments: [(10, 8 * 8), (40, 32 * 32)])
    func chargesTheRestoredRegion(frames count: Int, restoredPixels: Int) throws {
        // Frames 2, 5, 8... are disposed to "previous": 8x8 regions, and from frame 14 one covering the canvas.
        let budget = MemoryBudget(capacity: 256 << 20)
        let held = (32 * 32 + restoredPixels) * 4
        do {
            let image = try PNGDecoder().decode(
                Self.wanderingAPNG(frames: count),
                options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0, memoryBudget: budget)))
            let source = try #require(image.frameSource as? AnimationFrameSource<APNGFrameReader>)
            _ = try source.frame(at: count - 1)
            #expect(budget.inUse == held + source.bufferedByteCount)
            source.releaseBuffer()
            #expect(budget.inUse == 0)
            var charged: [Int] = []
            try image.forEachFrame { _, _ in charged.append(budget.inUse) }
            #expect(charged.count == count)
            #expect(charged.allSatisfy { $0 == held })
        }
        #expect(budget.inUse == 0)
    }

    @Test("a frame that covers the canvas with source blending needs no frame before it")
    func cleanStartsNeedNothingBefore() throws {
        let lazy = try PNGDecoder().decode(
            try Self.wanderingAPNG(frames: 50), options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0)))
        let source = try #require(lazy.frameSource as? AnimationFrameSource<APNGFrameReader>)
        // Frame 49 covers the canvas, blends "source", and its dispose operation (background)
        // does not ask for the canvas before it back.
        _ = try source.frame(at: 49)
        #expect(source.frameDecodes == 1)
    }
}
