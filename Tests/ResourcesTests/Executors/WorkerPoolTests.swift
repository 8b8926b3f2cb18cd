import Dispatch
import Foundation
import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageResources

/// A gate that blocks the threads that reach it (the pool's own, never the test's) until
/// the test opens it, and announces each arrival.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let counts = Locked<(inside: Int, most: Int)>((0, 0))
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrived) = AsyncStream<Void>.makeStream()
    }

    /// How many threads are inside at once, at most, so far.
    var mostInside: Int { counts.withLock { $0.most } }
    var inside: Int { counts.withLock { $0.inside } }

    /// Blocks the calling thread until the gate lets it through.
    func pass() {
        counts.withLock {
            $0.inside += 1
            $0.most = max($0.most, $0.inside)
        }
        arrived.yield()
        semaphore.wait()
        counts.withLock { $0.inside -= 1 }
    }

    func open(for count: Int) {
        for _ in 0..<count { semaphore.signal() }
    }
}

/// Names in the order things happened.
private final class Log: Sendable {
    private let entries = Locked<[String]>([])
    var names: [String] { entries.withLock { $0 } }
    func append(_ name: String) { entries.withLock { $0.append(name) } }
}

@Suite("WorkerPool: a task executor on threads of its own", .timeLimit(.minutes(1)))
struct WorkerPoolTests {
    @Test("work that prefers the pool runs on the pool's named threads, also after an await")
    func runsOnPoolThreads() async {
        let pool = WorkerPool(width: 2, name: "wp-threads")
        defer { pool.shutdown() }
        #expect(!pool.isCurrentThreadInPool)

        let (before, after, name) = await withTaskExecutorPreference(pool) {
            let before = pool.isCurrentThreadInPool
            await Task.yield()
            let after = pool.isCurrentThreadInPool
            return (before, after, ThreadNames.current())
        }
        #expect(before && after)
        #expect(name?.hasPrefix("wp-threads-") == true)

        let inTask = await Task(executorPreference: pool) { pool.isCurrentThreadInPool }.value
        #expect(inTask)
        #expect(ThreadNames.all().filter { $0.hasPrefix("wp-threads-") }.count == 2)
    }

    @Test("never more jobs at once than the pool is wide")
    func width() async {
        let pool = WorkerPool(width: 2, name: "wp-width")
        defer { pool.shutdown() }
        let gate = Gate()
        var arrivals = gate.arrivals.makeAsyncIterator()
        let tasks = (0..<6).map { _ in Task(executorPreference: pool) { gate.pass() } }
        _ = await arrivals.next()
        _ = await arrivals.next()
        #expect(gate.inside == 2)
        #expect(pool.queuedJobCount == 4, "the other four wait for a thread")
        gate.open(for: 6)
        for task in tasks { await task.value }
        #expect(gate.mostInside == 2)
    }

    @Test("waiting jobs run by task priority, then in the order they came")
    func priorityOrder() async {
        let pool = WorkerPool(width: 1, name: "wp-priority")
        defer { pool.shutdown() }
        let gate = Gate()
        var arrivals = gate.arrivals.makeAsyncIterator()
        let blocker = Task(executorPreference: pool) { gate.pass() }
        _ = await arrivals.next()  // the one thread is busy; everything below queues

        let log = Log()
        let requests: [(String, TaskPriority)] = [
            ("low 1", .low), ("medium 1", .medium), ("high 1", .high), ("low 2", .low), ("high 2", .high), ("medium 2", .medium),
        ]
        let tasks = requests.map { name, priority in Task(executorPreference: pool, priority: priority) { log.append(name) } }
        #expect(pool.queuedJobCount == requests.count)
        gate.open(for: 1)
        await blocker.value
        for task in tasks { await task.value }
        #expect(log.names == ["high 1", "high 2", "medium 1", "medium 2", "low 1", "low 2"])
    }

    @Test("cancelling a task on the pool cancels its waits, and it stays on the pool")
    func cancellation() async {
        let pool = WorkerPool(width: 1, name: "wp-cancel")
        defer { pool.shutdown() }
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task(executorPreference: pool) { () -> (cancelled: Bool, onPool: Bool) in
            startedContinuation.yield()
            do {
                // Waits until cancelled: the hour never passes in this test.
                try await Task.sleep(for: .seconds(3600))
                return (false, pool.isCurrentThreadInPool)
            } catch {
                return (error is CancellationError, pool.isCurrentThreadInPool)
            }
        }
        for await _ in started { break }
        task.cancel()
        let outcome = await task.value
        #expect(outcome.cancelled)
        #expect(outcome.onPool)
    }

    @Test("shutdown runs the jobs already queued, joins the threads, and later jobs still run elsewhere")
    func shutdown() async {
        let pool = WorkerPool(width: 1, name: "wp-shutdown")
        let gate = Gate()
        var arrivals = gate.arrivals.makeAsyncIterator()
        let log = Log()
        let blocker = Task(executorPreference: pool) { gate.pass() }
        _ = await arrivals.next()
        let queued = (1...3).map { index in Task(executorPreference: pool) { log.append("queued \(index)") } }
        #expect(pool.queuedJobCount == 3)
        gate.open(for: 1)
        pool.shutdown()
        #expect(log.names == ["queued 1", "queued 2", "queued 3"], "the queue was drained before the threads ended")
        #expect(!ThreadNames.all().contains { $0.hasPrefix("wp-shutdown-") }, "the threads were joined")
        pool.shutdown()  // a second call does nothing

        let later = await Task(executorPreference: pool) { pool.isCurrentThreadInPool }.value
        #expect(!later, "after the shutdown the job ran on the global executor")
        await blocker.value
        for task in queued { await task.value }
    }

    @Test("a pool dropped without a shutdown ends its threads")
    func deinitShutsDown() {
        do {
            let pool = WorkerPool(width: 2, name: "wp-deinit")
            #expect(ThreadNames.all().filter { $0.hasPrefix("wp-deinit-") }.count == 2)
            _ = pool
        }
        #expect(!ThreadNames.all().contains { $0.hasPrefix("wp-deinit-") })
    }

    @Test("the default width is the cores this process may use")
    func defaultWidth() {
        let pool = WorkerPool()
        defer { pool.shutdown() }
        #expect(pool.width == ProcessResources.current.usableCores)
    }
}
