import Synchronization
import WebImageCore

@testable import WebImageConcurrency

/// A reachability observer the test sets by hand: the manager's network recovery with no
/// kernel and no clock. Observers hear the current status first, then each change.
final class ScriptedReachability: NetworkReachabilityObserving {
    private struct State {
        var status: NetworkReachabilityStatus
        var observers: [Int: @Sendable (NetworkReachabilityStatus) -> Void] = [:]
        var next = 0
        /// Callers of ``allObservationsEnded()``, resumed when the last observation ends.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Locked<State>

    init(_ status: NetworkReachabilityStatus) {
        state = Locked(State(status: status))
    }

    var currentStatus: NetworkReachabilityStatus { state.withLock { $0.status } }

    /// How many observations are open now.
    var observerCount: Int { state.withLock { $0.observers.count } }

    /// Sets the status and tells every observer, on this thread.
    func set(_ status: NetworkReachabilityStatus) {
        let observers = state.withLock { state in
            state.status = status
            return Array(state.observers.values)
        }
        for observer in observers { observer(status) }
    }

    func observe(delivery: CallbackDelivery, _ handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void) -> ReachabilityObservation
    {
        let (id, status) = state.withLock { state in
            state.next += 1
            state.observers[state.next] = { status in delivery.run { handler(status) } }
            return (state.next, state.status)
        }
        delivery.run { handler(status) }
        return ReachabilityObservation { [self] in
            let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.observers.removeValue(forKey: id)
                guard state.observers.isEmpty else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in resumed { waiter.resume() }
        }
    }

    /// Returns once no observation is open: a load ending its wait closes its observation
    /// after its subscriber may already have heard the end.
    func allObservationsEnded() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.observers.isEmpty { state.waiters.append(continuation) }
                return !state.observers.isEmpty
            }
            if !open { continuation.resume() }
        }
    }
}

/// A scripted downloader whose queue the manager can pause, recording each call.
final class SuspendableDownloader: ImageDownloading, DownloadQueueSuspending {
    let base: ScriptedDownloader
    private let calls = Locked<[String]>([])

    init(_ base: ScriptedDownloader) { self.base = base }

    var suspensions: [String] { calls.withLock { $0 } }

    func download(_ request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void)
        -> DownloadToken
    {
        base.download(request, delivery: delivery, handler: handler)
    }

    func suspend() { calls.withLock { $0.append("suspend") } }
    func resume() { calls.withLock { $0.append("resume") } }
}
