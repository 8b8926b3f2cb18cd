import Foundation
import Testing
import WebImageCore
import WebImageResources
import WebImageTestSupport

@testable import WebImageDecoding

/// What an animation composed on demand holds is counted in the memory budget it is
/// charged to (`FrameBuffering.memoryBudget`) while it holds it, and given back when it
/// lets go; the bounds it keeps within are a share of that budget.
@Suite("Frame sources: the memory budget", .timeLimit(.minutes(1)))
struct FrameSourceBudgetTests {
    /// The canvas of `FrameSourceTests.wanderingGIF`: 64x64 RGBA.
    static let canvas = 64 * 64 * 4

    /// What a reader of `FrameSourceTests.wanderingGIF(frames:coverEvery:)` holds: the
    /// canvas, and the copy of the largest rectangle of a frame disposed to "restore to
    /// previous" (every fourth frame; 16x16, or the whole screen for one that covers it).
    static func held(frames count: Int, coverEvery: Int? = 9) -> Int {
        let restored = (0..<count).filter { $0 % 4 == 3 }.map { index in
            coverEvery.map { index % $0 == $0 - 1 } ?? false ? 64 * 64 : 16 * 16
        }
        return canvas + 4 * (restored.max() ?? 0)
    }

    static func onDemand(
        charging budget: MemoryBudget, snapshotInterval: Int = 4, bufferByteLimit: Int? = nil, snapshotByteLimit: Int? = nil
    ) -> DecodeOptions {
        DecodeOptions(
            frameBuffering: FrameBuffering(
                eagerByteLimit: 0, bufferByteLimit: bufferByteLimit, snapshotInterval: snapshotInterval,
                snapshotByteLimit: snapshotByteLimit, memoryBudget: budget))
    }

    @Test("a frame source charges its canvas, frames and snapshots while it holds them, and gives them back")
    func chargedWhileHeld() throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let data = FrameSourceTests.wanderingGIF(frames: 300)
        do {
            let image = try GIFDecoder().decode(data, options: Self.onDemand(charging: budget))
            let source = try FrameSourceTests.frameSource(image)
            #expect(budget.inUse == 0, "nothing is composed yet")
            _ = try source.frame(at: 150)
            #expect(source.bufferedByteCount > Self.canvas, "the frame and snapshots on the way are kept")
            #expect(budget.inUse == Self.held(frames: 300) + source.bufferedByteCount)
            source.releaseBuffer()
            #expect(budget.inUse == 0)
            _ = try source.frame(at: 299)
            #expect(budget.inUse == Self.held(frames: 300) + source.bufferedByteCount)
        }
        // The image, its source and their buffer are freed: so is their charge.
        #expect(budget.inUse == 0)
    }

    @Test("a budget with no room for a snapshot or a frame keeps none: the frames are still right, seeks cost more")
    func noRoomKeepsNothing() throws {
        // Room for what the source draws on and less than one more canvas; the
        // source's own bounds would keep every frame and snapshot.
        let budget = MemoryBudget(capacity: Self.canvas + Self.canvas / 2)
        let data = FrameSourceTests.wanderingGIF(frames: 120, coverEvery: nil)
        let eager = try GIFDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        let image = try GIFDecoder().decode(
            data, options: Self.onDemand(charging: budget, bufferByteLimit: 4 << 20, snapshotByteLimit: 4 << 20))
        let source = try FrameSourceTests.frameSource(image)
        for index in [119, 3, 60, 59] {
            #expect(try source.frame(at: index).bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            #expect(source.bufferedByteCount == 0)
            #expect(budget.inUse == Self.held(frames: 120, coverEvery: nil), "only the canvas and its disposal copy are held")
        }
        // Without snapshots, frame 59 after 60 is composed again from the first frame.
        let before = source.frameDecodes
        _ = try source.frame(at: 58)
        #expect(source.frameDecodes - before == 59)
        source.releaseBuffer()
        #expect(budget.inUse == 0)
    }

    @Test("playing an animation holds its canvas in the budget until the iteration ends")
    func playbackChargesUntilItEnds() async throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let image = try GIFDecoder().decode(FrameSourceTests.wanderingGIF(frames: 40), options: Self.onDemand(charging: budget))
        var frames = 0
        for try await _ in image.playback(loops: 1) {
            frames += 1
            #expect(budget.inUse == Self.held(frames: 40))
        }
        #expect(frames == 40)
        #expect(budget.inUse == 0)
        // Left after two frames: the iterator, its reader and the charge go together.
        for try await frame in image.playback(loops: 0) where frame.index == 1 {
            #expect(budget.inUse >= Self.canvas)
            break
        }
        #expect(budget.inUse == 0)
    }

    @Test("cancelling the task that plays an animation frees its buffer and its charge")
    func cancelledPlaybackGivesBack() async throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let image = try GIFDecoder().decode(FrameSourceTests.wanderingGIF(frames: 40), options: Self.onDemand(charging: budget))
        let (shown, show) = AsyncStream<Int>.makeStream()
        let player = Task {
            var played = 0
            // Forever, until cancelled.
            for try await _ in image.playback(loops: 0) {
                played += 1
                if played == 3 { show.yield(budget.inUse) }
                // A player waits between frames: the test's task gets a thread to cancel it.
                await Task.yield()
            }
            return played
        }
        var announcements = shown.makeAsyncIterator()
        let charged = try #require(await announcements.next())
        #expect(charged >= Self.canvas)
        player.cancel()
        let played = try await player.value
        #expect(played >= 3)
        #expect(budget.inUse == 0)
    }

    @Test("an encoder walking the frames holds one canvas in the budget, given back when it is done")
    func forEachFrameCharges() throws {
        let budget = MemoryBudget(capacity: 256 << 20)
        let image = try GIFDecoder().decode(FrameSourceTests.wanderingGIF(frames: 30), options: Self.onDemand(charging: budget))
        var charged: [Int] = []
        try image.forEachFrame { _, _ in charged.append(budget.inUse) }
        #expect(charged.count == 30)
        #expect(charged.allSatisfy { $0 == Self.held(frames: 30) })
        #expect(budget.inUse == 0)
    }

    @Test("unless set, the frame buffer and snapshot bounds are a share of the budget, up to 8 and 16 MiB")
    func boundsAreAShareOfTheBudget() throws {
        let small = FrameBuffering(memoryBudget: MemoryBudget(capacity: 64 << 20))
        #expect(small.bufferByteLimit == 2 << 20)
        #expect(small.snapshotByteLimit == 4 << 20)
        let large = FrameBuffering(memoryBudget: MemoryBudget(capacity: 4 << 30))
        #expect(large.bufferByteLimit == 8 << 20)
        #expect(large.snapshotByteLimit == 16 << 20)
        #expect(FrameBuffering.default.bufferByteLimit == 8 << 20)
        #expect(FrameBuffering.default.snapshotByteLimit == 16 << 20)
        var chosen = small
        chosen.bufferByteLimit = 1 << 20
        #expect(chosen.bufferByteLimit == 1 << 20)
        #expect(chosen.snapshotByteLimit == 4 << 20)
        // A source's bounds, and what a memory cache charges it for, follow its budget.
        let budget = MemoryBudget(capacity: 32 << 20)
        let image = try GIFDecoder().decode(FrameSourceTests.wanderingGIF(frames: 300), options: Self.onDemand(charging: budget))
        #expect(try #require(image.frameSource).byteLimit == (1 << 20) + (2 << 20))
        #expect(image.byteCount == Self.canvas + (1 << 20) + (2 << 20))
    }

    @Test("a source on a small budget keeps its frames and snapshots within the budget's share")
    func smallBudgetBoundsTheSource() throws {
        // A thirty-second of 8 MiB is 256 KiB of frames (16 canvases), a sixteenth 512 KiB of snapshots (32).
        let budget = MemoryBudget(capacity: 8 << 20)
        let image = try GIFDecoder().decode(
            FrameSourceTests.wanderingGIF(frames: 1000), options: Self.onDemand(charging: budget, snapshotInterval: 2))
        let source = try FrameSourceTests.frameSource(image)
        for index in stride(from: 999, through: 0, by: -37) {
            _ = try source.frame(at: index)
            #expect(source.bufferedByteCount <= (256 << 10) + (512 << 10))
            #expect(budget.inUse == Self.held(frames: 1000) + source.bufferedByteCount)
        }
        #expect(try #require(source.snapshotInterval) >= 32, "1,000 frames in 32 snapshots")
    }
}
