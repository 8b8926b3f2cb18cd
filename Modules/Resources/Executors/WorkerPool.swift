import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Threads of its own for CPU-heavy work (decoding, resizing), so that it does not occupy
/// Swift's cooperative thread pool, whose few threads also run every request handler.
///
/// The pool is a `TaskExecutor`: code runs on it by preference, and every `await` inside
/// comes back to it.
///
/// ```swift
/// let pool = WorkerPool()  // ProcessResources.current.usableCores threads
///
/// let image = try await withTaskExecutorPreference(pool) {
///     try decoder.decode(data)  // on one of the pool's threads
/// }
/// // or: Task(executorPreference: pool) { ... }
///
/// pool.shutdown()  // when the server stops
/// ```
///
/// At most ``width`` jobs run at once, one per thread. Jobs wait highest task priority
/// first, then in the order they came; a job runs to its next suspension point without
/// being interrupted, so a long synchronous stretch keeps its thread that long.
///
/// Lifetime: keep the pool alive while tasks prefer it and call ``shutdown()`` when done.
/// Jobs enqueued after the shutdown run on Swift's global concurrent executor instead, so
/// no task that still prefers the pool is stranded. A pool that is deinitialised without a
/// shutdown shuts down then.
///
/// All methods may be called from any thread.
public final class WorkerPool: TaskExecutor, Sendable {
    /// How many threads run jobs, and so how many jobs run at once.
    public let width: Int

    /// The threads' name prefix (seen in `top -H`, debuggers and crash logs).
    public let name: String

    private let queue = JobQueue()
    // Every thread the pool made (for "is this thread one of ours?"), and those not yet
    // joined by a shutdown.
    private let threads = Locked<(all: [pthread_t], unjoined: [pthread_t])>(([], []))

    /// Starts `width` threads, named `name-1`, `name-2`, ... (Linux shows the whole
    /// characters that fit in 15 bytes), and returns once they are running.
    ///
    /// - Parameters:
    ///   - width: How many jobs run at once; at least 1. The default is the cores this
    ///     process may use, cgroup quota and affinity included.
    ///   - name: The threads' name prefix.
    public init(width: Int = ProcessResources.current.usableCores, name: String = "webimage-pool") {
        precondition(width > 0, "a worker pool needs at least one thread")
        self.width = width
        self.name = name
        let executor = asUnownedTaskExecutor()
        let running = DispatchSemaphore(value: 0)
        let started = (1...width).map { index in
            Self.startThread(WorkerContext(queue: queue, executor: executor, name: "\(name)-\(index)", running: running))
        }
        threads.withLock { $0 = (started, started) }
        // Wait until every thread has named itself, so a thread listing right after this
        // shows the whole pool.
        for _ in started { running.wait() }
    }

    deinit {
        queue.shutdown()
        let (all, unjoined) = threads.withLock { ($0.all, $0.unjoined) }
        if all.contains(where: { pthread_equal($0, pthread_self()) != 0 }) {
            // The last reference went in one of the pool's own jobs: that thread cannot
            // wait for itself, so every thread cleans up after itself when it ends.
            for thread in unjoined { pthread_detach(thread) }
        } else {
            for thread in unjoined { pthread_join(thread, nil) }
        }
    }

    /// Queues `job` for the pool's threads, or hands it to the global concurrent executor
    /// once the pool is shut down. Called by the Swift runtime.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !queue.push(job) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Stops the pool: the jobs already queued still run, then the threads end, and this
    /// returns once they have. Calling it again does nothing.
    ///
    /// From then on, jobs of tasks that still prefer the pool run on Swift's global
    /// concurrent executor. Called from one of the pool's own jobs (or while another call
    /// is still waiting), it does not wait: a thread cannot wait for itself.
    public func shutdown() {
        queue.shutdown()
        let toJoin: [pthread_t] = threads.withLock { threads in
            guard !threads.all.contains(where: { pthread_equal($0, pthread_self()) != 0 }) else { return [] }
            defer { threads.unjoined = [] }
            return threads.unjoined
        }
        for thread in toJoin { pthread_join(thread, nil) }
    }

    /// How many jobs wait for a thread now: the pool's queue depth, for a gauge.
    public var queuedJobCount: Int { queue.count }

    /// Whether the calling thread is one of the pool's: for assertions that CPU work
    /// stays off the cooperative pool.
    public var isCurrentThreadInPool: Bool {
        threads.withLock { $0.all.contains { pthread_equal($0, pthread_self()) != 0 } }
    }

    private static func startThread(_ context: WorkerContext) -> pthread_t {
        Thread.startJoinable { context.run() }
    }
}

/// What one worker thread needs: the queue it serves, and the executor its jobs run on.
/// It holds no reference to the pool, so the pool can be deinitialised while its threads
/// wait.
private final class WorkerContext: Sendable {
    let queue: JobQueue
    let executor: UnownedTaskExecutor
    let name: String
    let running: DispatchSemaphore

    init(queue: JobQueue, executor: UnownedTaskExecutor, name: String, running: DispatchSemaphore) {
        self.queue = queue
        self.executor = executor
        self.name = name
        self.running = running
    }

    func run() {
        Thread.nameCurrent(name)
        running.signal()
        while let job = queue.pop() {
            job.runSynchronously(on: executor)
        }
    }
}
