import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

extension NetworkRecovery {
    /// How a wait for the network ended (``ImageLoadEventMonitor`` hears it).
    public enum WaitOutcome: Equatable, Sendable, CustomStringConvertible {
        /// The observer reported the network reachable: try again.
        case networkBack
        /// ``maximumWait`` passed first: the load fails with the error it had.
        case timedOut
        /// The load's task was cancelled.
        case cancelled

        /// `network back`, `timed out` or `cancelled`.
        public var description: String {
            switch self {
            case .networkBack: "network back"
            case .timedOut: "timed out"
            case .cancelled: "cancelled"
            }
        }
    }

    /// The observer's status that makes a load's failed attempt wait for the network, or
    /// `nil` when it does not wait: it waits when its failure means the network was not
    /// there, the observer says it is unreachable, and the load has waited fewer than
    /// ``maximumRetries`` times.
    func waitingStatus(after error: DownloadError, waitsSoFar: Int) -> NetworkReachabilityStatus? {
        guard waitsSoFar < maximumRetries, Self.isNetworkDown(error) else { return nil }
        let status = observer.currentStatus
        return status == .unreachable ? status : nil
    }

    /// Waits for the network after a load's attempt failed because it was down, on
    /// `clock`, for at most ``maximumWait``. Whatever ends the wait first (the network
    /// back, the bound, the task's cancellation) ends the observation and the timer at
    /// once, so neither outlives the load.
    func waitForNetwork(for url: URL, clock: any Clock<Duration>) async -> WaitOutcome {
        waitHandler?(url)
        let gate = NetworkWaitGate()
        let (observer, bound) = (self.observer, maximumWait)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome, Never>) in
                gate.install(continuation)
                // The observation first: once the bound's timer runs, the network's return
                // is heard.
                let observation = observer.observe(delivery: .immediate) { status in
                    if status.isReachable { gate.decide(.networkBack) }
                }
                let timer = Task {
                    try? await Task.sleep(for: bound, clock: clock)
                    if !Task.isCancelled { gate.decide(.timedOut) }
                }
                gate.hold(NetworkWait(observation: observation, timer: timer))
            }
        } onCancel: {
            gate.decide(.cancelled)
        }
    }
}

/// The one decision of a wait for the network: the first of its ends decides, the wait's
/// handles are ended, and only then does the waiting load resume, so no observation or
/// timer outlives the moment its load hears the outcome. Each part may arrive in any
/// order (a cancel before the continuation is installed, the network back before the
/// handles are held), so each step checks what came before it. The handles always come
/// last (``hold(_:)``), after the continuation.
final class NetworkWaitGate: Sendable {
    private struct State {
        var continuation: CheckedContinuation<NetworkRecovery.WaitOutcome, Never>?
        var outcome: NetworkRecovery.WaitOutcome?
        var wait: NetworkWait?
    }

    private let state = Locked(State())

    init() {}

    /// What decided the wait, once something did.
    var outcome: NetworkRecovery.WaitOutcome? { state.withLock(\.outcome) }

    /// The waiting load's continuation, resumed once the wait is decided and its handles
    /// are ended.
    func install(_ continuation: CheckedContinuation<NetworkRecovery.WaitOutcome, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The wait's observation and timer. When the wait was decided before, they are ended
    /// at once and the load resumes.
    func hold(_ wait: NetworkWait) {
        let decided = state.withLock { state -> (NetworkRecovery.WaitOutcome, CheckedContinuation<NetworkRecovery.WaitOutcome, Never>?)? in
            guard let outcome = state.outcome else {
                state.wait = wait
                return nil
            }
            defer { state.continuation = nil }
            return (outcome, state.continuation)
        }
        guard let (outcome, continuation) = decided else { return }
        wait.end()
        continuation?.resume(returning: outcome)
    }

    /// Ends the wait with `outcome`, unless it has ended already. Before the handles are
    /// held, the outcome waits for them (``hold(_:)`` ends them and resumes the load).
    func decide(_ outcome: NetworkRecovery.WaitOutcome) {
        let taken = state.withLock { state -> (CheckedContinuation<NetworkRecovery.WaitOutcome, Never>?, NetworkWait)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            guard let wait = state.wait else { return nil }
            defer { (state.continuation, state.wait) = (nil, nil) }
            return (state.continuation, wait)
        }
        guard let (continuation, wait) = taken else { return }
        wait.end()
        continuation?.resume(returning: outcome)
    }
}
