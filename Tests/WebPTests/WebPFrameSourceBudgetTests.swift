import Foundation
import Testing
import WebImageCore
import WebImageResources

@testable import WebImageDecoding
@testable import WebImageWebP

/// An animated WebP composed on demand draws with two canvases (the frame being composed,
/// and the canvas after the last frame's disposal that the next is drawn on); both are
/// counted in the memory budget while they exist.
@Suite("WebPDecoder: frames on demand in the memory budget", .timeLimit(.minutes(1)))
struct WebPFrameSourceBudgetTests {
    /// One canvas of `WebPFrameSourceTests.wandering`: 48x40 RGBA.
    static let canvas = 48 * 40 * 4

    static func onDemand(charging budget: MemoryBudget) -> DecodeOptions {
        DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0, snapshotInterval: 3, memoryBudget: budget))
    }

    @Test("a frame source charges both canvases, its frames and its snapshots, and gives them all back")
    func sourceChargesBothCanvases() throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let data = try WebPFrameSourceTests.wandering(frames: 40)
        do {
            let image = try WebPDecoder().decode(data, options: Self.onDemand(charging: budget))
            let source = try WebPFrameSourceTests.frameSource(image)
            #expect(budget.inUse == 0, "nothing is composed yet")
            _ = try source.frame(at: 25)
            #expect(source.bufferedByteCount > 0, "the frame and the snapshots on the way are kept")
            #expect(budget.inUse == 2 * Self.canvas + source.bufferedByteCount)
            source.releaseBuffer()
            #expect(budget.inUse == 0)
            _ = try source.frame(at: 39)
            #expect(budget.inUse == 2 * Self.canvas + source.bufferedByteCount)
        }
        // The image, its source and their buffer are freed: so is their charge.
        #expect(budget.inUse == 0)
    }

    @Test("playing an animation holds both canvases until the iteration ends")
    func playbackChargesBothCanvases() async throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let image = try WebPDecoder().decode(
            WebPFrameSourceTests.wandering(frames: 20), options: Self.onDemand(charging: budget))
        var charged: [Int] = []
        for try await _ in image.playback(loops: 1) { charged.append(budget.inUse) }
        #expect(charged.count == 20)
        #expect(charged.allSatisfy { $0 == 2 * Self.canvas })
        #expect(budget.inUse == 0)
    }
}
