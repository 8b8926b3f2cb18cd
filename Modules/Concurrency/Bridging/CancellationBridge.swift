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

    /// Keeps `work`, or cancels it at once when the cancellation came first. Only the
    /// first call counts: work handed over early (see
    /// ``withCancellableContinuationHoldingEarly(_:)``) is not replaced, nor cancelled
    /// twice, when the same work is handed over again as `start` returns.
    package func hold(_ work: any Cancellable) {
        let cancelled = state.withLock { state -> Bool? in
            guard state.work == nil else { return nil }
            state.work = work
            return state.cancelled
        }
        if cancelled == true { work.cancel() }
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
    await withCancellableContinuationHoldingEarly { resume, _ in start(resume) }
}

/// ``withCancellableContinuation(_:)`` for work whose canceller is known before the call
/// that starts it returns: `start` gets `hold` too, to hand it over at once (a
/// downloader's `tokenReady`). The work may finish on another thread, and the caller's
/// task be cancelled, before `start` returns; a canceller handed over only then would
/// miss that cancel's moment, and work that goes on in steps (a retry) could take one
/// more.
nonisolated(nonsending)
    package func withCancellableContinuationHoldingEarly<Value: Sendable>(
        _ start: (_ resume: @escaping @Sendable (Value) -> Void, _ hold: (any Cancellable) -> Void) -> any Cancellable
    ) async -> Value
{
    let bridge = CancellationBridge()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            bridge.hold(start({ continuation.resume(returning: $0) }, { bridge.hold($0) }))
        }
    } onCancel: {
        bridge.cancel()
    }
}
