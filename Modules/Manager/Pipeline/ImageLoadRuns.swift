import Synchronization
import WebImageConcurrency

/// The load runs under way, by key: so that a load joining a run can find it, for its
/// token's pause and resume to count there (the registry knows the subscribers, not the
/// run they share). A run is forgotten when it ends or is abandoned.
final class ImageLoadRuns: Sendable {
    private let runs = Locked<[ImageLoadKey: ImageLoadTask]>([:])
    /// Who waits for there to be no run (a shutdown), by number.
    private let emptyWaiters = Locked<(next: UInt64, waiting: [UInt64: CheckedContinuation<Void, Never>])>((0, [:]))

    init() {}

    /// Records `run` as the key's run; returns it.
    func register(_ run: ImageLoadTask) -> ImageLoadTask {
        runs.withLock { $0[run.key] = run }
        return run
    }

    /// The key's run now, if any.
    subscript(key: ImageLoadKey) -> ImageLoadTask? {
        runs.withLock { $0[key] }
    }

    /// Forgets `run`, unless a newer run of its key took its place.
    func forget(_ run: ImageLoadTask) {
        let isEmpty = runs.withLock { runs in
            if runs[run.key] === run { runs[run.key] = nil }
            return runs.isEmpty
        }
        guard isEmpty else { return }
        let waiting = emptyWaiters.withLock { waiters in
            defer { waiters.waiting = [:] }
            return Array(waiters.waiting.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// How many runs are under way now.
    var count: Int { runs.withLock { $0.count } }

    /// Every run under way now.
    var all: [ImageLoadTask] { runs.withLock { Array($0.values) } }

    /// Returns once no run is under way (at once when none is), or once the task is
    /// cancelled.
    func whenEmpty() async {
        let id = emptyWaiters.withLock { waiters in
            defer { waiters.next += 1 }
            return waiters.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The runs' lock is held while the waiter is added, so a run ending meanwhile
                // either sees it or was already gone.
                let resumeNow = runs.withLock { runs in
                    guard !runs.isEmpty, !Task.isCancelled else { return true }
                    emptyWaiters.withLock { $0.waiting[id] = continuation }
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            emptyWaiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
