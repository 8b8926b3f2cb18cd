import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore
@testable import WebImageManager

@Suite("Manager: disk writes held back while loads run (write-behind, manual clock)", .timeLimit(.minutes(1)))
struct DiskWriteBehindTests {
    let clock = ManualClock()
    let disk = InMemoryDataCache()

    func writeBehind() -> DiskWriteBehind {
        DiskWriteBehind(clock: clock, storeFailed: { error, key in Issue.record("storing \(key) failed: \(error)") })
    }

    func write(_ key: CacheKey, bytes: Int = 16) -> DiskWriteBehind.Write {
        DiskWriteBehind.Write(disk: disk, data: Data(repeating: 7, count: bytes), metadata: CachedResponseMetadata(), key: key)
    }

    @Test("with no load running, a write starts at once")
    func noLoadRunning() async {
        let writes = writeBehind()
        writes.enqueue(write("a"))
        await disk.stored("a")
        #expect(disk["a"]?.data.count == 16)
    }

    @Test("while a load runs, a write waits in memory, where loads find it; the load's end writes it")
    func waitsWhileALoadRuns() async {
        let writes = writeBehind()
        writes.loadStarted()
        writes.enqueue(write("a"))
        #expect(!writes.isWriting)
        #expect(disk["a"] == nil)
        #expect(writes.waitingResponse(for: "a", in: disk)?.data.count == 16)
        writes.loadEnded()
        await disk.stored("a")
        await writes.flush()
        #expect(writes.waitingResponse(for: "a", in: disk) == nil, "forgotten once on disk")
    }

    @Test("once the clock passes maximumDelay since the oldest waiting write, the next enqueue writes everything")
    func oldestWaitedMaximumDelay() async {
        let writes = writeBehind()
        writes.loadStarted()
        writes.enqueue(write("a"))
        clock.advance(by: DiskWriteBehind.maximumDelay - .nanoseconds(1))
        writes.enqueue(write("b"))
        #expect(!writes.isWriting, "the oldest has not waited maximumDelay yet")
        clock.advance(by: .nanoseconds(1))
        writes.enqueue(write("c"))
        for key: CacheKey in ["a", "b", "c"] { await disk.stored(key) }
        #expect(disk.count == 3)
    }

    @Test("once pendingByteLimit bytes wait, the enqueue that reached it writes everything")
    func pendingByteLimit() async {
        let writes = writeBehind()
        writes.loadStarted()
        writes.enqueue(write("a", bytes: DiskWriteBehind.pendingByteLimit - 1))
        #expect(!writes.isWriting)
        writes.enqueue(write("b", bytes: 1))
        await disk.stored("a")
        await disk.stored("b")
        #expect(disk.totalSize == DiskWriteBehind.pendingByteLimit)
    }

    @Test("flush writes everything waiting, while a load runs, and returns once it is on disk")
    func flush() async {
        let writes = writeBehind()
        writes.loadStarted()
        writes.enqueue(write("a"))
        writes.enqueue(write("b"))
        await writes.flush()
        #expect(disk["a"] != nil && disk["b"] != nil)
        #expect(!writes.isWriting)
        #expect(writes.waitingResponse(for: "b", in: disk) == nil)
        await writes.flush()  // nothing waits: returns at once
    }
}
