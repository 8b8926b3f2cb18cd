import Synchronization
import WebImageConcurrency
import WebImageCore

/// Async work shared by every caller of one key: the first caller's call starts it,
/// callers that come while it runs wait for the same outcome, and it is cancelled when
/// every caller has gone.
///
/// It is the library's one coalescing mechanism (the one behind the downloader's
/// downloads and the manager's loads) for work that is a single `async` function: an
/// image proxy's render of one output, a report made once for many requests.
///
/// ```swift
/// let renders = CoalescedTasks<String, [UInt8]>()
/// let (bytes, joined) = try await renders.value(for: "thumbs/42@300") {
///     [UInt8](repeating: 0, count: 300)  // the expensive part, run once for every caller
/// }
/// print(bytes.count, joined ? "shared a running render" : "rendered")
/// ```
///
/// What you can count on:
/// - **One run per key at a time.** A caller that comes while the key's work runs gets
///   its outcome (value or error) and `joined == true`; a caller after the end starts
///   the work again. Nothing is kept: put a cache in front for that.
/// - **A cancelled caller leaves at once** with `CancellationError`; the others keep
///   waiting. When the last caller leaves, the work's task is cancelled, so work that
///   checks for cancellation (or waits in a queue) stops and frees what it holds.
/// - **The work runs in a task of its own**, at the first caller's priority, so one
///   caller's cancellation reaches it only when every caller is cancelled.
public final class CoalescedTasks<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private typealias Runs = CoalescedRuns<TaskRun, Never, Value, any Error>

    private let runs: Runs

    public convenience init() {
        self.init(registry: CallbackRegistry<Key, Never, Value, any Error>())
    }

    /// Coalesces through `registry` (a test watches callers join and leave through it).
    init(registry: any CallbackRegistering<Key, Never, Value, any Error>) {
        runs = Runs(registry: registry)
    }

    /// The outcome of `key`'s work: the run under way, or `work` started now.
    ///
    /// - Returns: the value, and whether this call joined a run another caller started.
    /// - Throws: what `work` threw (to every caller of that run), or `CancellationError`
    ///   when the calling task is cancelled first.
    public func value(
        for key: Key, work: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, joined: Bool) {
        // A caller cancelled before it asks starts nothing.
        try Task.checkCancellation()
        var joined = false
        let runs = runs
        let result = await withCancellableContinuation { (resume: @escaping @Sendable (Result<Value, any Error>) -> Void) in
            let membership = runs.join(
                key, priority: .normal, delivery: .immediate, makeRun: { TaskRun(key: key, work: work, runs: runs) },
                handler: { event in
                    if case .completed(let result) = event { resume(result) }
                })
            joined = !membership.isFirst
            runs.begin(membership, priority: .normal)
            return Leaving { runs.leave(membership, keepingResumableData: false, failure: CancellationError()) }
        }
        return (try result.get(), joined)
    }

    /// How many keys have work running now.
    public var count: Int { runs.count }

    /// One key's work, in a task of its own, ended through the runs.
    private final class TaskRun: CoalescedRun {
        let key: Key
        private let work: @Sendable () async throws -> Value
        /// Held until the run ends: the runs hold the run only while it is under way.
        private let runs: Runs
        /// The task once started; `abandoned` once every caller left (possibly before
        /// the task exists, so the start cancels it at once).
        private let state = Locked<(task: Task<Void, Never>?, abandoned: Bool)>((nil, false))

        init(key: Key, work: @escaping @Sendable () async throws -> Value, runs: Runs) {
            self.key = key
            self.work = work
            self.runs = runs
        }

        func start(generation: UInt64) {
            let task = Task { [work, runs] in
                let result: Result<Value, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                runs.finish(self, generation: generation, with: result)
            }
            let abandoned = state.withLock { state in
                state.task = task
                return state.abandoned
            }
            if abandoned { task.cancel() }
        }

        func abandoned(keepingResumableData: Bool) {
            let task = state.withLock { state in
                state.abandoned = true
                return state.task
            }
            task?.cancel()
        }

        // A task's pause and priority cannot be changed from outside it.
        func pauseChanged(to paused: Bool) {}
        func priorityRaised(to priority: DownloadPriority) {}
    }

    /// Leaves a run when the caller's task is cancelled.
    private struct Leaving: Cancellable {
        let leave: @Sendable () -> Void
        func cancel() { leave() }
    }
}
