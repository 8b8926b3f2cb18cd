import Synchronization
import WebImageCore

/// Hands what cancels some work to a task's cancellation handler, which may run before
/// the work has started, and so before there is anything to cancel: the one place where
/// the library turns a callback API that returns a ``Cancellable`` into an async call.
///
/// Whichever comes second does the cancelling: ``hold(_:)`` after ``cancel()`` cancels
/// the work at once, ``cancel()`` after ``hold(_:)`` cancels what it holds.
package final class CancellationBridge: Sendable {
    private let state = Locked<(work: (any Cancellable)?, cancelled: Bool)>((nil, false))

    package init() {}

    /// Keeps `work`, or cancels it at once when the cancellation came first.
    package func hold(_ work: any Cancellable) {
        let cancelled = state.withLock { state in
            state.work = work
            return state.cancelled
        }
        if cancelled { work.cancel() }
    }

    /// Cancels the held work, or the work still to come.
    package func cancel() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}

/// Runs callback-style work as an async call: `start` begins the work with a function
/// that must be called exactly once with the outcome (also after a cancellation), and
/// returns what cancels the work. Cancelling the calling task cancels the work, also
/// when the task was cancelled before the work began. Runs on the caller's executor.
nonisolated(nonsending)
    package func withCancellableContinuation<Value: Sendable>(
        _ start: (_ resume: @escaping @Sendable (Value) -> Void) -> any Cancellable
    ) async -> Value
{
    let bridge = CancellationBridge()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            bridge.hold(start { continuation.resume(returning: $0) })
        }
    } onCancel: {
        bridge.cancel()
    }
}
