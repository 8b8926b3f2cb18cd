import Foundation
import Synchronization
import Testing
import WebImageOperations

@testable import WebImageConcurrency
@testable import WebImageCore

/// Records the order operations start in; each holds its slot until released.
final class StartLog: Sendable {
    private let started = Locked<[String]>([])
    private let held = Locked<[String: QueuedOperation]>([:])
    var order: [String] { started.withLock { $0 } }

    func work(_ name: String) -> @Sendable (QueuedOperation) -> Void {
        { operation in
            self.started.withLock { $0.append(name) }
            self.held.withLock { $0[name] = operation }
        }
    }

    func finish(_ name: String) {
        held.withLock { $0.removeValue(forKey: name) }?.finish()
    }

    func finishAll() {
        for operation in held.withLock({ held in
            defer { held.removeAll() }
            return Array(held.values)
        }) { operation.finish() }
    }
}

@Suite("DownloadQueue: concurrency, order, priority")
struct DownloadQueueTests {
    @Test("at most the maximum run at once; a finish starts the next")
    func maximumConcurrency() {
        let queue = DownloadQueue(maximumConcurrentOperations: 2)
        let log = StartLog()
        for name in ["a", "b", "c", "d"] { queue.add(work: log.work(name)) }
        #expect(log.order == ["a", "b"])
        #expect(queue.runningCount == 2)
        #expect(queue.pendingCount == 2)
        log.finish("a")
        #expect(log.order == ["a", "b", "c"])
        queue.maximumConcurrentOperations = 3
        #expect(log.order == ["a", "b", "c", "d"], "raising the limit starts waiting operations at once")
        log.finishAll()
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
    }

    @Test("the default limit is 6")
    func defaultLimit() {
        #expect(DownloadQueue().maximumConcurrentOperations == 6)
        #expect(DownloadQueue(maximumConcurrentOperations: 0).maximumConcurrentOperations == 1)
    }

    @Test("FIFO starts the oldest waiting operation, LIFO the newest")
    func order() {
        for (order, expected) in [(ExecutionOrder.fifo, ["first", "w1", "w2", "w3"]), (.lifo, ["first", "w3", "w2", "w1"])] {
            let queue = DownloadQueue(maximumConcurrentOperations: 1, order: order)
            let log = StartLog()
            for name in ["first", "w1", "w2", "w3"] { queue.add(work: log.work(name)) }
            for name in expected { log.finish(name) }
            #expect(log.order == expected, "\(order)")
        }
    }

    @Test("higher priorities start first; equal ones in the queue's order")
    func priorities() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        queue.add(work: log.work("running"))
        queue.add(priority: .low, work: log.work("low"))
        queue.add(priority: .veryHigh, work: log.work("veryHigh"))
        queue.add(priority: .normal, work: log.work("normal1"))
        queue.add(priority: .veryLow, work: log.work("veryLow"))
        queue.add(priority: .normal, work: log.work("normal2"))
        queue.add(priority: .high, work: log.work("high"))
        for name in ["running", "veryHigh", "high", "normal1", "normal2", "low", "veryLow"] { log.finish(name) }
        #expect(log.order == ["running", "veryHigh", "high", "normal1", "normal2", "low", "veryLow"])
    }

    @Test("a waiting operation's priority can rise, never fall")
    func raisePriority() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        queue.add(work: log.work("running"))
        queue.add(priority: .normal, work: log.work("normal"))
        let raised = queue.add(priority: .low, work: log.work("raised"))
        raised.raisePriority(to: .high)
        #expect(raised.priority == .high)
        raised.raisePriority(to: .veryLow)
        #expect(raised.priority == .high, "never lowered")
        log.finish("running")
        #expect(log.order == ["running", "raised"])
        log.finishAll()
        #expect(log.order == ["running", "raised", "normal"])
    }

    @Test("changing the order reorders the waiting operations")
    func reorder() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        for name in ["first", "a", "b", "c"] { queue.add(work: log.work(name)) }
        queue.order = .lifo
        for name in ["first", "c", "b", "a"] { log.finish(name) }
        #expect(log.order == ["first", "c", "b", "a"])
    }

    @Test("suspend stops starting; resume starts again; running ones go on")
    func suspendResume() {
        let queue = DownloadQueue(maximumConcurrentOperations: 2)
        let log = StartLog()
        queue.add(work: log.work("a"))
        queue.suspend()
        #expect(queue.isSuspended)
        queue.add(work: log.work("b"))
        log.finish("a")
        #expect(log.order == ["a"])
        #expect(queue.pendingCount == 1)
        queue.resume()
        #expect(log.order == ["a", "b"])
    }

    @Test("holds on starting are counted: nothing starts until the last is released; running ones go on")
    func countedHolds() {
        let queue = DownloadQueue(maximumConcurrentOperations: 2)
        let log = StartLog()
        queue.add(work: log.work("a"))
        queue.holdStarts()
        queue.holdStarts()
        #expect(queue.isHoldingStarts)
        queue.add(work: log.work("b"))
        log.finish("a")
        queue.releaseStarts()
        #expect(log.order == ["a"], "one hold is still taken")
        #expect(queue.pendingCount == 1)
        queue.releaseStarts()
        #expect(!queue.isHoldingStarts)
        #expect(log.order == ["a", "b"])
        queue.releaseStarts()
        #expect(!queue.isHoldingStarts, "a release without a hold takes none away from the next")
    }

    @Test("holds and the application's suspension are apart: either one keeps operations waiting")
    func holdsApartFromSuspension() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        queue.suspend()
        queue.holdStarts()
        queue.add(work: log.work("a"))
        queue.releaseStarts()
        #expect(log.order.isEmpty, "still suspended")
        queue.holdStarts()
        queue.resume()
        #expect(log.order.isEmpty, "still held")
        queue.releaseStarts()
        #expect(log.order == ["a"])
    }
}

@Suite("QueuedOperation: the state machine")
struct QueuedOperationStateTests {
    @Test("pending -> running -> finished; a second finish changes nothing")
    func normalLife() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        let first = queue.add(work: log.work("first"))
        let second = queue.add(work: log.work("second"))
        #expect(first.state == .running)
        #expect(second.state == .pending)
        first.finish()
        #expect(first.state == .finished)
        #expect(second.state == .running)
        first.finish()
        #expect(queue.runningCount == 1, "a second finish frees nothing")
        first.cancel()
        #expect(first.state == .finished, "cancelling a finished operation changes nothing")
    }

    @Test("a cancelled waiting operation never runs")
    func cancelPending() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        queue.add(work: log.work("running"))
        let cancelled = queue.add(onCancel: { Issue.record("not running: no cancel handler") }, work: log.work("cancelled"))
        queue.add(work: log.work("next"))
        cancelled.cancel()
        #expect(cancelled.state == .cancelled)
        #expect(queue.pendingCount == 1)
        log.finish("running")
        #expect(log.order == ["running", "next"])
    }

    @Test("a cancelled running operation hears it and keeps its slot until its work finishes")
    func cancelRunning() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let log = StartLog()
        let heard = Locked(0)
        let running = queue.add(onCancel: { heard.withLock { $0 += 1 } }, work: log.work("running"))
        queue.add(work: log.work("next"))
        running.cancel()
        running.cancel()
        #expect(heard.withLock { $0 } == 1)
        #expect(running.state == .cancelled)
        #expect(log.order == ["running"], "the slot is still held")
        running.finish()
        #expect(running.state == .cancelled, "it stays cancelled")
        #expect(log.order == ["running", "next"])
    }

    @Test("cancel all: waiting ones never run, running ones hear it")
    func cancelAll() {
        let queue = DownloadQueue(maximumConcurrentOperations: 2)
        let log = StartLog()
        let heard = Locked(0)
        let operations = (0..<5).map { i in queue.add(onCancel: { heard.withLock { $0 += 1 } }, work: log.work("\(i)")) }
        queue.cancelAll()
        #expect(heard.withLock { $0 } == 2)
        #expect(queue.pendingCount == 0)
        log.finishAll()
        #expect(queue.runningCount == 0)
        #expect(operations.allSatisfy { $0.state == .cancelled })
        #expect(log.order == ["0", "1"])
    }

    @Test("100,000 operations that finish as they start run in order without growing the stack")
    func synchronousFinishers() {
        let queue = DownloadQueue(maximumConcurrentOperations: 1)
        let count = Locked(0)
        queue.suspend()
        for _ in 0..<100_000 {
            queue.add { operation in
                count.withLock { $0 += 1 }
                operation.finish()
            }
        }
        queue.resume()
        #expect(count.withLock { $0 } == 100_000)
        #expect(queue.runningCount == 0)
    }

    @Test("operations added and finished from many threads all run, never more than the limit at once, and the queue ends empty")
    func manyThreads() async {
        final class Tally: Sendable {
            let counts = Locked((ran: 0, running: 0, peak: 0, finished: 0))
            let allFinished = AsyncStream<Void>.makeStream()
        }
        let queue = DownloadQueue(maximumConcurrentOperations: 3)
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        queue.add(priority: DownloadPriority.allCases.randomElement()!) { operation in
                            tally.counts.withLock {
                                $0.ran += 1
                                $0.running += 1
                                $0.peak = max($0.peak, $0.running)
                            }
                            DispatchQueue.global().async {
                                tally.counts.withLock { $0.running -= 1 }
                                operation.finish()
                                let finished = tally.counts.withLock { counts in
                                    counts.finished += 1
                                    return counts.finished
                                }
                                if finished == 4000 { tally.allFinished.continuation.finish() }
                            }
                        }
                    }
                }
            }
        }
        for await _ in tally.allFinished.stream {}
        let counts = tally.counts.withLock { $0 }
        #expect(counts.ran == 4000)
        #expect(counts.peak <= 3)
        #expect(queue.runningCount == 0)
        #expect(queue.pendingCount == 0)
    }
}
