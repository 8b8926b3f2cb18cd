import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageManager

/// The lifecycle's actions in a form a test compares: tokens and waits by identity,
/// errors by their description.
private enum Step: Equatable {
    case none
    case passOn
    case adjust(DownloadToken, paused: Bool?, priority: DownloadPriority?)
    case cancel(DownloadToken, keepingResumableData: Bool)
    case beginWait(after: Int)
    case retry(attempt: Int, priority: DownloadPriority, ending: ReachabilityObservation?)
    case fail(String, ending: ReachabilityObservation?)
    case end(ReachabilityObservation)
}

extension RecoveryLifecycle.Action {
    fileprivate var step: Step {
        switch self {
        case .none: .none
        case .passOn: .passOn
        case .adjust(let token, let adjustment): .adjust(token, paused: adjustment.paused, priority: adjustment.priority)
        case .cancel(let token, let keepingResumableData): .cancel(token, keepingResumableData: keepingResumableData)
        case .beginWait(let attempt): .beginWait(after: attempt)
        case .retry(let attempt, let priority, let wait): .retry(attempt: attempt, priority: priority, ending: wait?.observation)
        case .fail(let error, let wait): .fail(error.description, ending: wait?.observation)
        case .end(let wait): .end(wait.observation)
        }
    }
}

@Suite("Manager: the network recovery's lifecycle (cancel, pause, the network and completions in every order)")
struct RecoveryLifecycleTests {
    private static let down = DownloadError.transport(TransportError(.connectionRefused, "refused"))

    private func token() -> DownloadToken {
        DownloadToken(
            key: DownloadKey(url: URL(string: "https://images.test/a.png")!), subscription: SubscriptionToken(id: 1), onCancel: {})
    }

    private func wait() -> NetworkWait {
        NetworkWait(observation: ReachabilityObservation {}, timer: Task {})
    }

    /// Attempt 0 asked for, its token ready.
    private func downloading(_ first: DownloadToken, maximumRetries: Int = 3) -> RecoveryLifecycle {
        var lifecycle = RecoveryLifecycle(priority: .normal, maximumRetries: maximumRetries)
        _ = lifecycle.tokenReady(first, attempt: 0, askedAt: .normal)
        return lifecycle
    }

    /// Attempt 0 failed for want of network; the wait holds `wait`.
    private func waiting(_ wait: NetworkWait) -> RecoveryLifecycle {
        var lifecycle = downloading(token())
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .beginWait(after: 0))
        #expect(lifecycle.waitBegan(wait, after: 0).step == .none)
        return lifecycle
    }

    // MARK: Cancel

    @Test("a cancel during an attempt cancels its token once; its completion, a network failure included, ends the download")
    func cancelDuringAnAttempt() {
        let first = token()
        var lifecycle = downloading(first)
        #expect(lifecycle.cancel(keepingResumableData: true).step == .cancel(first, keepingResumableData: true))
        #expect(lifecycle.cancel(keepingResumableData: false).step == .none)
        #expect(lifecycle.attemptProgressed(0).step == .passOn, "the attempt's events until its completion")
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .passOn, "no wait after a cancel")
        #expect(lifecycle.cancel(keepingResumableData: false).step == .none)
    }

    @Test("a cancel before the attempt's token is ready reaches the token as it arrives, keeping resumable data as asked")
    func cancelBeforeTheToken() {
        var lifecycle = RecoveryLifecycle(priority: .normal, maximumRetries: 3)
        #expect(lifecycle.cancel(keepingResumableData: true).step == .none)
        let first = token()
        #expect(lifecycle.tokenReady(first, attempt: 0, askedAt: .normal).step == .cancel(first, keepingResumableData: true))
        #expect(lifecycle.tokenReady(first, attempt: 0, askedAt: .normal).step == .none, "cancelled once")
        #expect(lifecycle.attemptCompleted(0, networkFailure: nil).step == .passOn)
    }

    @Test("a cancel during the wait ends the download at once with cancelled and ends the wait; what the wait hears later changes nothing")
    func cancelDuringTheWait() {
        let handles = wait()
        var lifecycle = waiting(handles)
        #expect(lifecycle.cancel(keepingResumableData: false).step == .fail("cancelled", ending: handles.observation))
        #expect(lifecycle.networkBack(after: 0).step == .none, "no attempt after the cancel")
        #expect(lifecycle.waitTimedOut(after: 0).step == .none, "one completion")
        #expect(lifecycle.cancel(keepingResumableData: false).step == .none)
    }

    @Test("a cancel after the wait began but before its handles arrived ends the download; the handles are ended as they arrive")
    func cancelBeforeTheWaitsHandles() {
        var lifecycle = downloading(token())
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .beginWait(after: 0))
        #expect(lifecycle.cancel(keepingResumableData: false).step == .fail("cancelled", ending: nil))
        let handles = wait()
        #expect(lifecycle.waitBegan(handles, after: 0).step == .end(handles.observation))
        #expect(lifecycle.networkBack(after: 0).step == .none)
    }

    @Test("a cancel while the next attempt is being asked for reaches that attempt's token as it arrives; its completion is the one")
    func cancelDuringTheRetry() {
        let handles = wait()
        var lifecycle = waiting(handles)
        #expect(lifecycle.networkBack(after: 0).step == .retry(attempt: 1, priority: .normal, ending: handles.observation))
        #expect(lifecycle.cancel(keepingResumableData: false).step == .none)
        let second = token()
        #expect(lifecycle.tokenReady(second, attempt: 1, askedAt: .normal).step == .cancel(second, keepingResumableData: false))
        #expect(lifecycle.waitTimedOut(after: 0).step == .none, "the ended wait's timer")
        #expect(lifecycle.attemptCompleted(1, networkFailure: Self.down).step == .passOn)
        #expect(lifecycle.attemptCompleted(1, networkFailure: nil).step == .none, "one completion")
    }

    // MARK: The wait's end

    @Test("the network back ends the wait and asks for the next attempt; the bound after that changes nothing")
    func networkBack() {
        let handles = wait()
        var lifecycle = waiting(handles)
        #expect(lifecycle.networkBack(after: 0).step == .retry(attempt: 1, priority: .normal, ending: handles.observation))
        #expect(lifecycle.networkBack(after: 0).step == .none, "one attempt")
        #expect(lifecycle.waitTimedOut(after: 0).step == .none)
        #expect(lifecycle.attemptCompleted(1, networkFailure: nil).step == .passOn)
    }

    @Test("the network back before the wait's handles arrived asks for the next attempt; the handles are ended as they arrive")
    func networkBackBeforeTheHandles() {
        var lifecycle = downloading(token())
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .beginWait(after: 0))
        #expect(lifecycle.networkBack(after: 0).step == .retry(attempt: 1, priority: .normal, ending: nil))
        let handles = wait()
        #expect(lifecycle.waitBegan(handles, after: 0).step == .end(handles.observation))
    }

    @Test("the bound ends the wait with the attempt's failure; the network back or a cancel after that changes nothing")
    func bound() {
        let handles = wait()
        var lifecycle = waiting(handles)
        #expect(lifecycle.waitTimedOut(after: 0).step == .fail(Self.down.description, ending: handles.observation))
        #expect(lifecycle.networkBack(after: 0).step == .none)
        #expect(lifecycle.cancel(keepingResumableData: false).step == .none)
    }

    @Test("an earlier wait's timer, or an earlier attempt's events, change nothing in a later attempt or wait")
    func staleEvents() {
        var lifecycle = waiting(wait())
        _ = lifecycle.networkBack(after: 0)
        #expect(lifecycle.tokenReady(token(), attempt: 0, askedAt: .normal).step == .none)
        #expect(lifecycle.attemptProgressed(0).step == .none)
        #expect(lifecycle.attemptProgressed(1).step == .passOn)
        #expect(lifecycle.attemptCompleted(0, networkFailure: nil).step == .none)
        #expect(lifecycle.attemptCompleted(1, networkFailure: Self.down).step == .beginWait(after: 1))
        #expect(lifecycle.waitTimedOut(after: 0).step == .none)
        #expect(lifecycle.networkBack(after: 0).step == .none)
        #expect(lifecycle.networkBack(after: 1).step == .retry(attempt: 2, priority: .normal, ending: nil))
    }

    @Test("a download waits at most maximumRetries times, and any other completion ends it")
    func retriesBound() {
        var lifecycle = downloading(token(), maximumRetries: 1)
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .beginWait(after: 0))
        _ = lifecycle.networkBack(after: 0)
        #expect(lifecycle.attemptCompleted(1, networkFailure: Self.down).step == .passOn)
        var other = downloading(token())
        #expect(other.attemptCompleted(0, networkFailure: nil).step == .passOn)
    }

    // MARK: Pause and priority

    @Test("a pause holds for every attempt: the next attempt's token is paused as it arrives, and one resume reaches it")
    func pauseOutlastsTheAttempt() {
        let first = token()
        var lifecycle = downloading(first)
        #expect(lifecycle.setPaused(true).step == .adjust(first, paused: true, priority: nil))
        #expect(lifecycle.setPaused(true).step == .none)
        #expect(lifecycle.attemptCompleted(0, networkFailure: Self.down).step == .beginWait(after: 0))
        #expect(lifecycle.setPaused(false).step == .none, "no token while waiting")
        #expect(lifecycle.setPaused(true).step == .none)
        _ = lifecycle.networkBack(after: 0)
        let second = token()
        #expect(lifecycle.tokenReady(second, attempt: 1, askedAt: .normal).step == .adjust(second, paused: true, priority: nil))
        #expect(lifecycle.setPaused(false).step == .adjust(second, paused: false, priority: nil))
    }

    @Test("a priority raised during the wait is the next attempt's; one raised while it is asked for reaches its token")
    func priorityOutlastsTheAttempt() {
        let handles = wait()
        var lifecycle = waiting(handles)
        #expect(lifecycle.raisePriority(to: .high).step == .none)
        #expect(lifecycle.raisePriority(to: .low).step == .none, "never lowered")
        #expect(lifecycle.networkBack(after: 0).step == .retry(attempt: 1, priority: .high, ending: handles.observation))
        #expect(lifecycle.raisePriority(to: .veryHigh).step == .none, "no token yet")
        let second = token()
        #expect(lifecycle.tokenReady(second, attempt: 1, askedAt: .high).step == .adjust(second, paused: nil, priority: .veryHigh))
        #expect(lifecycle.cancel(keepingResumableData: false).step == .cancel(second, keepingResumableData: false))
        #expect(lifecycle.setPaused(true).step == .none, "nothing to pause once cancelled")
    }
}
