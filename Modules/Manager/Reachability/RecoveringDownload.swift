import Synchronization
import WebImageConcurrency
import WebImageCore

/// One subscriber's download under ``NetworkRecovery``: attempt, and after a failure
/// that means the network was down (while it is unreachable), wait for it to come back,
/// then attempt again, within the bounds of the recovery. The subscriber sees the events
/// of each attempt and exactly one completion; the decisions are ``RecoveryLifecycle``'s,
/// this class performs them.
///
/// The token it hands out cancels and pauses the whole download: a cancel reaches the
/// current attempt (or ends the wait), and a pause holds for every attempt (one started
/// while paused starts paused).
final class RecoveringDownload: Sendable {
    private let request: DownloadRequest
    private let delivery: CallbackDelivery
    private let handler: @Sendable (DownloadEvent) -> Void
    private let base: any ImageDownloading
    private let recovery: NetworkRecovery
    /// The clock the wait's bound runs on.
    private let clock: any Clock<Duration>
    private let lifecycle: Locked<RecoveryLifecycle>

    init(
        request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void,
        base: any ImageDownloading, recovery: NetworkRecovery, clock: any Clock<Duration>
    ) {
        self.request = request
        self.delivery = delivery
        self.handler = handler
        self.base = base
        self.recovery = recovery
        self.clock = clock
        self.lifecycle = Locked(RecoveryLifecycle(priority: request.effectivePriority, maximumRetries: recovery.maximumRetries))
    }

    /// Starts the first attempt; the token it returns cancels and pauses the whole
    /// download, and reaches `tokenReady` as soon as the first attempt's token does.
    func start(tokenReady: (DownloadToken) -> Void) -> DownloadToken {
        var whole: DownloadToken?
        let first = ask(attempt: 0, priority: request.effectivePriority) { firstToken in
            let token = wholeToken(like: firstToken)
            whole = token
            tokenReady(token)
        }
        return whole ?? wholeToken(like: first)
    }

    private func wholeToken(like first: DownloadToken) -> DownloadToken {
        DownloadToken(
            key: first.key, subscription: first.subscription,
            onCancel: { [self] in step { $0.cancel(keepingResumableData: false) } },
            onCancelKeepingResumableData: { [self] in step { $0.cancel(keepingResumableData: true) } },
            onPauseChange: { [self] paused in step { $0.setPaused(paused) } },
            onPriorityRaise: { [self] priority in step { $0.raisePriority(to: priority) } })
    }

    private func ask(attempt: Int, priority: DownloadPriority, tokenReady: (DownloadToken) -> Void = { _ in }) -> DownloadToken {
        var attemptRequest = request
        attemptRequest.raisePriority(to: priority)
        let asked = attemptRequest.effectivePriority
        return base.download(
            attemptRequest, delivery: delivery,
            tokenReady: { [self] token in
                step { $0.tokenReady(token, attempt: attempt, askedAt: asked) }
                tokenReady(token)
            },
            handler: { [self] event in received(event, of: attempt) })
    }

    private func received(_ event: DownloadEvent, of attempt: Int) {
        guard case .completed(let result) = event else {
            if case .passOn = lifecycle.withLock({ $0.attemptProgressed(attempt) }) { handler(event) }
            return
        }
        var networkFailure: DownloadError?
        if case .failure(let error) = result, NetworkRecovery.isNetworkDown(error), recovery.observer.currentStatus == .unreachable {
            networkFailure = error
        }
        let action = lifecycle.withLock { $0.attemptCompleted(attempt, networkFailure: networkFailure) }
        // The attempt's completion came on the subscriber's delivery already.
        if case .passOn = action { handler(event) } else { perform(action) }
    }

    /// Waits for the network (or the bound, or a cancel) after `attempt`.
    private func beginWait(after attempt: Int) {
        recovery.waitHandler?(request.url)
        let (clock, bound) = (self.clock, recovery.maximumWait)
        let timer = Task { [self] in
            do {
                try await Task.sleep(for: bound, clock: clock)
            } catch {
                return  // the wait ended otherwise
            }
            step { $0.waitTimedOut(after: attempt) }
        }
        let observation = recovery.observer.observe(delivery: .immediate) { [self] status in
            if status.isReachable { step { $0.networkBack(after: attempt) } }
        }
        step { $0.waitBegan(NetworkWait(observation: observation, timer: timer), after: attempt) }
    }

    /// Runs `transition` under the lock and performs its action: a token adjustment
    /// there, anything else once the lock is released (a cancel's completion, or a new
    /// attempt, may come back here at once).
    private func step(_ transition: (inout RecoveryLifecycle) -> RecoveryLifecycle.Action) {
        let action = lifecycle.withLock { lifecycle -> RecoveryLifecycle.Action in
            let action = transition(&lifecycle)
            guard case .adjust(let token, let adjustment) = action else { return action }
            adjustment.apply(to: token)
            return .none
        }
        perform(action)
    }

    private func perform(_ action: RecoveryLifecycle.Action) {
        switch action {
        case .none, .passOn:
            break  // an attempt's own events are handed on where they arrive (`received`)
        case .adjust(let token, let adjustment):
            adjustment.apply(to: token)
        case .cancel(let token, let keepingResumableData):
            token.cancel(keepingResumableData: keepingResumableData)
        case .beginWait(let attempt):
            beginWait(after: attempt)
        case .retry(let attempt, let priority, let wait):
            wait?.end()
            _ = ask(attempt: attempt, priority: priority)
        case .fail(let error, let wait):
            wait?.end()
            let handler = self.handler
            delivery.run { handler(.completed(.failure(error))) }
        case .end(let wait):
            wait.end()
        }
    }
}
