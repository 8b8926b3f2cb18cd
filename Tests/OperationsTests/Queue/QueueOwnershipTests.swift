import Synchronization
import Testing
import WebImageOperations

@testable import WebImageConcurrency
@testable import WebImageCore

/// Something a queued operation's work holds, to see when the work is freed.
private final class Payload: Sendable {}

@Suite("DownloadQueue ownership: the queue owns its operations, an operation does not own its queue")
struct QueueOwnershipTests {
    @Test("a suspended queue dropped with operations waiting frees them and their work, which never runs")
    func droppedSuspendedQueue() {
        weak var weakQueue: DownloadQueue?
        weak var weakOperation: QueuedOperation?
        weak var weakPayload: Payload?
        let ran = Locked(false)
        let kept: QueuedOperation
        do {
            let queue = DownloadQueue(maximumConcurrentOperations: 1)
            queue.suspend()
            let payload = Payload()
            let operation = queue.add { _ in
                _ = payload
                ran.withLock { $0 = true }
            }
            kept = queue.add { _ in ran.withLock { $0 = true } }
            weakQueue = queue
            weakOperation = operation
            weakPayload = payload
            #expect(queue.pendingCount == 2)
        }
        #expect(weakQueue == nil, "no waiting operation keeps its queue alive")
        #expect(weakOperation == nil)
        #expect(weakPayload == nil, "the work went with the queue")
        #expect(kept.state == .cancelled, "a handle still held reads as cancelled")
        #expect(!ran.withLock { $0 })
    }

    @Test("the queue lets go of an operation's work as it stops waiting: cancelled while others still wait, or started")
    func workFreedWhenItStopsWaiting() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        queue.suspend()
        weak var weakCancelled: Payload?
        weak var weakRunning: Payload?
        let cancelled: QueuedOperation
        let running: QueuedOperation
        do {
            let payload = Payload()
            let held = Payload()
            cancelled = queue.add { _ in _ = payload }
            running = queue.add { _ in _ = held }
            weakCancelled = payload
            weakRunning = held
        }
        queue.add { _ in }
        cancelled.cancel()
        #expect(queue.pendingCount == 2)
        #expect(weakCancelled == nil, "its stale entry keeps nothing of its work")
        queue.resume()
        #expect(running.state == .running)
        #expect(weakRunning == nil, "once started, the work keeps what it needs itself")
    }

    @Test("a running operation outlives its queue while its work holds it; finish and cancel then only set its state")
    func runningOutlivesQueue() {
        let heard = Locked(0)
        weak var weakQueue: DownloadQueue?
        var finishing: QueuedOperation?
        var cancelling: QueuedOperation?
        do {
            let queue = DownloadQueue(maximumConcurrentOperations: 2)
            finishing = queue.add { _ in }
            cancelling = queue.add(onCancel: { heard.withLock { $0 += 1 } }, work: { _ in })
            weakQueue = queue
        }
        #expect(weakQueue == nil)
        #expect(finishing?.state == .running)
        finishing?.finish()
        #expect(finishing?.state == .finished)
        cancelling?.cancel()
        cancelling?.cancel()
        #expect(cancelling?.state == .cancelled)
        #expect(heard.withLock { $0 } == 1, "a running operation hears its cancel once")
        cancelling?.finish()
        #expect(cancelling?.state == .cancelled, "it stays cancelled")
    }
}
