import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageProxy
@testable import WebImageResources

@Suite("Processing queue", .timeLimit(.minutes(1)))
struct ProcessingQueueTests {
    /// Holds a slot until `release` is opened.
    final class Latch: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func wait() async { for await _ in stream { return } }
        func open() { continuation.yield() }
    }

    /// A queue, and the signal of each change of its load.
    func watchedQueue(width: Int, capacity: Int) -> (ProcessingQueue, EventSignal) {
        let queue = ProcessingQueue(width: width, capacity: capacity)
        let changed = EventSignal()
        _ = queue.slots.observeChanges(changed.callback)
        return (queue, changed)
    }

    @Test("width run at once, capacity wait in order, and one more is refused as busy")
    func admission() async throws {
        let (queue, changed) = watchedQueue(width: 1, capacity: 2)
        let latch = Latch()
        let order = Order()
        let first = Task {
            try await queue.run {
                await latch.wait()
                order.append(0)
            }
        }
        await changed.wait { queue.load.running == 1 }
        let second = Task { try await queue.run { order.append(1) } }
        await changed.wait { queue.load.waiting == 1 }
        let third = Task { try await queue.run { order.append(2) } }
        await changed.wait { queue.load.waiting == 2 }
        await #expect {
            try await queue.run {}
        } throws: { error in
            (error as? ProxyError)?.reason == .busy
        }
        latch.open()
        try await first.value
        try await second.value
        try await third.value
        #expect(order.values == [0, 1, 2])
        #expect(queue.load.running == 0 && queue.load.waiting == 0)
    }

    @Test("a waiter that is cancelled leaves the queue, and its place is free again")
    func cancellation() async throws {
        let (queue, changed) = watchedQueue(width: 1, capacity: 1)
        let latch = Latch()
        let holder = Task { try await queue.run { await latch.wait() } }
        await changed.wait { queue.load.running == 1 }
        let waiter = Task { try await queue.run { Issue.record("a cancelled waiter ran") } }
        await changed.wait { queue.load.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(queue.load.waiting == 0)
        let next = Task { try await queue.run { 42 } }
        await changed.wait { queue.load.waiting == 1 }
        latch.open()
        try await holder.value
        #expect(try await next.value == 42)
    }
}

/// Appends from several tasks.
final class Order: Sendable {
    private let box = Locked<[Int]>([])
    func append(_ value: Int) { box.withLock { $0.append(value) } }
    var values: [Int] { box.withLock { $0 } }
}
