import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// One subscriber's download under ``NetworkRecovery``: attempt, and after a failure
/// that means the network was down (while it is unreachable), wait for it to come back,
/// then attempt again, within the bounds of the recovery. The subscriber sees the events
/// of each attempt and exactly one completion.
///
/// Phases: downloading(attempt) -> waiting(attempt) -> downloading(attempt + 1) ... ->
/// finished. Only the current attempt's events pass; the token cancels whichever phase
/// is current, and its pause holds for every attempt (one started while paused starts
/// paused).
final class RecoveringDownload: Sendable {
    private enum Phase {
        case downloading(attempt: Int, token: DownloadToken?)
        case waiting(attempt: Int, observation: ReachabilityObservation?, failure: DownloadError)
        case finished
    }

    private struct State {
        var phase: Phase = .downloading(attempt: 0, token: nil)
        var cancelRequested = false
        var paused = false
        /// The highest priority asked through the token: later attempts queue at it.
        var raisedPriority: DownloadPriority?

        func isDownloading(_ attempt: Int) -> Bool {
            if case .downloading(attempt, _) = phase { return true }
            return false
        }
    }

    private let request: DownloadRequest
    private let delivery: CallbackDelivery
    private let handler: @Sendable (DownloadEvent) -> Void
    private let base: any ImageDownloading
    private let recovery: NetworkRecovery
    private let state = Locked(State())

    init(
        request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void,
        base: any ImageDownloading, recovery: NetworkRecovery
    ) {
        self.request = request
        self.delivery = delivery
        self.handler = handler
        self.base = base
        self.recovery = recovery
    }

    /// Starts the first attempt; the token it returns cancels and pauses the whole
    /// download, and reaches `tokenReady` as soon as the first attempt's token does.
    func start(tokenReady: (DownloadToken) -> Void) -> DownloadToken {
        var whole: DownloadToken?
        let first = attempt(0) { firstToken in
            let token = wholeToken(like: firstToken)
            whole = token
            tokenReady(token)
        }
        return whole ?? wholeToken(like: first)
    }

    private func wholeToken(like first: DownloadToken) -> DownloadToken {
        DownloadToken(
            key: first.key, subscription: first.subscription, onCancel: { [self] in cancel(keepingResumableData: false) },
            onCancelKeepingResumableData: { [self] in cancel(keepingResumableData: true) },
            onPauseChange: { [self] paused in setPaused(paused) },
            onPriorityRaise: { [self] priority in raisePriority(to: priority) })
    }

    private func raisePriority(to priority: DownloadPriority) {
        state.withLock { state in
            guard priority > (state.raisedPriority ?? request.effectivePriority) else { return }
            state.raisedPriority = priority
            guard case .downloading(_, let token?) = state.phase else { return }
            token.raisePriority(to: priority)
        }
    }

    private func attempt(_ number: Int, tokenReady: (DownloadToken) -> Void = { _ in }) -> DownloadToken {
        var attemptRequest = request
        if let raised = state.withLock({ $0.raisedPriority }) { attemptRequest.raisePriority(to: raised) }
        let asked = attemptRequest.effectivePriority
        let token = base.download(
            attemptRequest, delivery: delivery,
            tokenReady: { [self] token in
                state.withLock { state in
                    guard state.isDownloading(number) else { return }  // it completed already
                    state.phase = .downloading(attempt: number, token: token)
                    if state.paused { token.pause() }
                    // A raise that came while this attempt was being asked for.
                    if let raised = state.raisedPriority, raised > asked { token.raisePriority(to: raised) }
                }
                tokenReady(token)
            },
            handler: { [self] event in handle(event, of: number) })
        let cancelNow = state.withLock { $0.isDownloading(number) && $0.cancelRequested }
        if cancelNow { token.cancel() }
        return token
    }

    /// Under the lock, so that racing pauses and resumes reach the attempt in order.
    private func setPaused(_ paused: Bool) {
        state.withLock { state in
            guard state.paused != paused else { return }
            state.paused = paused
            guard case .downloading(_, let token?) = state.phase else { return }
            if paused { token.pause() } else { token.resume() }
        }
    }

    private func handle(_ event: DownloadEvent, of attempt: Int) {
        guard case .completed(let result) = event else {
            if state.withLock({ $0.isDownloading(attempt) }) { handler(event) }
            return
        }
        enum Next {
            case ignore
            case deliver
            case wait
        }
        let next = state.withLock { state -> Next in
            guard state.isDownloading(attempt) else { return .ignore }
            if case .failure(let error) = result, !state.cancelRequested, attempt < recovery.maximumRetries,
                NetworkRecovery.isNetworkDown(error), recovery.observer.currentStatus == .unreachable
            {
                state.phase = .waiting(attempt: attempt, observation: nil, failure: error)
                return .wait
            }
            state.phase = .finished
            return .deliver
        }
        switch next {
        case .ignore: break
        case .deliver: handler(event)
        case .wait: wait(after: attempt)
        }
    }

    /// Waits for the network (or the bound, or a cancel), then attempts again.
    private func wait(after attempt: Int) {
        recovery.waitHandler?(request.url)
        let observation = recovery.observer.observe(delivery: .immediate) { [self] status in
            if status.isReachable { endWait(of: attempt, timedOut: false) }
        }
        let stillWaiting = state.withLock { state -> Bool in
            guard case .waiting(attempt, nil, let failure) = state.phase else { return false }
            state.phase = .waiting(attempt: attempt, observation: observation, failure: failure)
            return true
        }
        guard stillWaiting else {
            observation.cancel()
            return
        }
        let bound = recovery.maximumWait.components
        let nanoseconds = Int(clamping: bound.seconds) &* 1_000_000_000 &+ Int(bound.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [self] in
            endWait(of: attempt, timedOut: true)
        }
    }

    /// Ends the wait that followed `attempt`: the network is back (attempt again), or the
    /// bound passed (fail with the error the attempt had).
    private func endWait(of attempt: Int, timedOut: Bool) {
        let ended = state.withLock { state -> (ReachabilityObservation?, DownloadError)? in
            guard case .waiting(attempt, let observation, let failure) = state.phase else { return nil }
            state.phase = timedOut ? .finished : .downloading(attempt: attempt + 1, token: nil)
            return (observation, failure)
        }
        guard let (observation, failure) = ended else { return }
        observation?.cancel()
        if timedOut {
            let handler = self.handler
            delivery.run { handler(.completed(.failure(failure))) }
        } else {
            _ = self.attempt(attempt + 1)
        }
    }

    private func cancel(keepingResumableData: Bool) {
        enum Action {
            case none
            case cancelToken(DownloadToken)
            case endWait(ReachabilityObservation?)
        }
        let action = state.withLock { state -> Action in
            state.cancelRequested = true
            switch state.phase {
            case .downloading(_, let token): return token.map(Action.cancelToken) ?? .none
            case .waiting(_, let observation, _):
                state.phase = .finished
                return .endWait(observation)
            case .finished: return .none
            }
        }
        switch action {
        case .none: break
        // The attempt completes with `cancelled`, which `handle` delivers.
        case .cancelToken(let token): token.cancel(keepingResumableData: keepingResumableData)
        case .endWait(let observation):
            observation?.cancel()
            let handler = self.handler
            delivery.run { handler(.completed(.failure(.cancelled))) }
        }
    }
}
