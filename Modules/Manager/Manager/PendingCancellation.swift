import Synchronization
import WebImageCore

/// Hands what cancels some work to a task's cancellation handler, which may run before
/// the work has started (and so before there is anything to cancel).
final class PendingCancellation: Sendable {
    private let state = Locked<(work: (any Cancellable)?, cancelled: Bool)>((nil, false))

    /// Keeps `work`, or cancels it at once when the cancellation came first.
    func hold(_ work: any Cancellable) {
        let cancelled = state.withLock { state in
            state.work = work
            return state.cancelled
        }
        if cancelled { work.cancel() }
    }

    func cancel() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}
