import WebImageCore

/// The life of one subscriber's download under ``NetworkRecovery`` as a state machine
/// that does no I/O: each event returns the ``Action`` its ``RecoveringDownload``
/// performs, after the lock around it is released (token adjustments excepted, see
/// ``Action/adjust(_:_:)``).
///
/// ```
/// downloading(n)  token ready                          -> downloading(n) (paused, raised as wished)
/// downloading(n)  completed, network down, n < retries -> waiting(n)
/// downloading(n)  completed, anything else             -> finished (the completion passed on)
/// downloading(n)  cancel                               -> cancelling(n) (the token cancelled)
/// cancelling(n)   token ready                          -> cancelling(n) (the token cancelled)
/// cancelling(n)   completed                            -> finished (the completion passed on)
/// waiting(n)      network back                         -> downloading(n + 1) (the wait ended)
/// waiting(n)      bound reached                        -> finished (the wait ended, n's failure)
/// waiting(n)      cancel                               -> finished (the wait ended, cancelled)
/// ```
///
/// A cancel during an attempt goes to its token, or to the token as soon as it is
/// ready, and the attempt's completion (prompt after a cancel) ends the download: the
/// subscriber gets exactly one completion and no attempt follows. A cancel during a wait
/// ends the download at once. Handles arrive after the state that needs them (a token
/// after `download` was asked, a wait's observation and timer after it began; the
/// network may be back, or the bound reached, before then), so each state carries its
/// handle as optional, and every event names the attempt it belongs to: an event of an
/// earlier attempt, or one after the end, changes nothing and at most ends what it
/// brought.
struct RecoveryLifecycle {
    enum State {
        /// Attempt `attempt` (from 0) is asked of the downloader; its token once ready.
        case downloading(attempt: Int, token: DownloadToken?)
        /// Cancelled during attempt `attempt`: its token is cancelled (once ready), and
        /// its completion ends the download.
        case cancelling(attempt: Int, token: DownloadToken?, keepingResumableData: Bool)
        /// Attempt `attempt` failed with `failure` because the network was down; waiting
        /// for it to come back (the wait's handles once it began).
        case waiting(attempt: Int, failure: DownloadError, wait: NetworkWait?)
        /// Completed once; every later event is stale.
        case finished
    }

    /// A pause wish or a priority raise for an attempt's token.
    struct Adjustment: Equatable {
        var paused: Bool?
        var priority: DownloadPriority?

        func apply(to token: DownloadToken) {
            if let paused { paused ? token.pause() : token.resume() }
            if let priority { token.raisePriority(to: priority) }
        }
    }

    enum Action {
        case none
        /// Hand the attempt's event on to the subscriber as it came.
        case passOn
        /// Adjust the attempt's token, under the lock, so that racing pauses and resumes
        /// reach it in the order they were taken (the token only hands the wish on).
        case adjust(DownloadToken, Adjustment)
        /// Cancel the attempt's token; its completion follows.
        case cancel(DownloadToken, keepingResumableData: Bool)
        /// Begin the wait that follows `attempt`: tell the wait handler, observe the
        /// network, start the bound's timer, and report them with ``waitBegan(_:after:)``.
        case beginWait(after: Int)
        /// End the wait, if it began, then ask the downloader for `attempt` at `priority`.
        case retry(attempt: Int, priority: DownloadPriority, ending: NetworkWait?)
        /// End the wait, if it began, then complete the subscriber with `error`.
        case fail(DownloadError, ending: NetworkWait?)
        /// The handles of a wait that ended before they arrived.
        case end(NetworkWait)
    }

    private(set) var state = State.downloading(attempt: 0, token: nil)
    /// Whether the subscriber's last word was a pause: it holds for every attempt.
    private(set) var isPaused = false
    /// The priority each attempt is asked at; it only rises.
    private(set) var priority: DownloadPriority
    /// How many times the download may wait and try again.
    let maximumRetries: Int

    init(priority: DownloadPriority, maximumRetries: Int) {
        self.priority = priority
        self.maximumRetries = maximumRetries
    }

    // MARK: Attempt

    /// The downloader handed over the token of `attempt`, asked at `asked`.
    mutating func tokenReady(_ token: DownloadToken, attempt: Int, askedAt asked: DownloadPriority) -> Action {
        switch state {
        case .downloading(attempt, nil):
            state = .downloading(attempt: attempt, token: token)
            // A pause or a raise that came while the attempt was being asked for.
            let adjustment = Adjustment(paused: isPaused ? true : nil, priority: priority > asked ? priority : nil)
            return adjustment == Adjustment() ? .none : .adjust(token, adjustment)
        case .cancelling(attempt, nil, let keepingResumableData):
            state = .cancelling(attempt: attempt, token: token, keepingResumableData: keepingResumableData)
            return .cancel(token, keepingResumableData: keepingResumableData)
        default:
            return .none  // known already, or the attempt is over
        }
    }

    /// Progress or a partial image of `attempt`: passed on while the attempt is current.
    func attemptProgressed(_ attempt: Int) -> Action {
        switch state {
        case .downloading(attempt, _), .cancelling(attempt, _, _): .passOn
        default: .none
        }
    }

    /// `attempt` completed. `networkFailure`: its failure, when it means the network was
    /// not there while it is unreachable (see ``NetworkRecovery``); `nil` for any other
    /// outcome.
    mutating func attemptCompleted(_ attempt: Int, networkFailure: DownloadError?) -> Action {
        switch state {
        case .downloading(attempt, _):
            if let networkFailure, attempt < maximumRetries {
                state = .waiting(attempt: attempt, failure: networkFailure, wait: nil)
                return .beginWait(after: attempt)
            }
            state = .finished
            return .passOn
        case .cancelling(attempt, _, _):
            state = .finished
            return .passOn
        default:
            return .none
        }
    }

    // MARK: Wait

    /// The wait that follows `attempt` holds `wait`.
    mutating func waitBegan(_ wait: NetworkWait, after attempt: Int) -> Action {
        guard case .waiting(attempt, let failure, nil) = state else { return .end(wait) }
        state = .waiting(attempt: attempt, failure: failure, wait: wait)
        return .none
    }

    /// The network is reachable again during the wait that follows `attempt`.
    mutating func networkBack(after attempt: Int) -> Action {
        guard case .waiting(attempt, _, let wait) = state else { return .none }
        state = .downloading(attempt: attempt + 1, token: nil)
        return .retry(attempt: attempt + 1, priority: priority, ending: wait)
    }

    /// The wait that follows `attempt` lasted ``NetworkRecovery/maximumWait``.
    mutating func waitTimedOut(after attempt: Int) -> Action {
        guard case .waiting(attempt, let failure, let wait) = state else { return .none }
        state = .finished
        return .fail(failure, ending: wait)
    }

    // MARK: Subscriber

    mutating func cancel(keepingResumableData: Bool) -> Action {
        switch state {
        case .downloading(let attempt, let token):
            // A token not known yet is cancelled when it arrives (see `tokenReady`).
            state = .cancelling(attempt: attempt, token: token, keepingResumableData: keepingResumableData)
            return token.map { .cancel($0, keepingResumableData: keepingResumableData) } ?? .none
        case .waiting(_, _, let wait):
            state = .finished
            return .fail(.cancelled, ending: wait)
        case .cancelling, .finished:
            return .none
        }
    }

    mutating func setPaused(_ paused: Bool) -> Action {
        guard paused != isPaused else { return .none }
        isPaused = paused
        guard case .downloading(_, let token?) = state else { return .none }
        return .adjust(token, Adjustment(paused: paused))
    }

    mutating func raisePriority(to newPriority: DownloadPriority) -> Action {
        guard newPriority > priority else { return .none }
        priority = newPriority
        guard case .downloading(_, let token?) = state else { return .none }
        return .adjust(token, Adjustment(priority: newPriority))
    }
}
