import Testing
import WebImageCore

@testable import WebImageTransport

/// Pausing and resuming in the transfer's lifecycle, driven with plain values: a
/// made-up clock, a string for the connection slot, no libcurl.
@Suite("Transfer lifecycle: pause and resume in every state, and what paused time costs")
struct TransferLifecyclePausingTests {
    typealias Lifecycle = TransferState.StateMachine<String>

    let t0 = ContinuousClock.now
    let timeouts = TransportRequest.Timeouts(connect: .seconds(10), total: .seconds(15), stall: .seconds(10))

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// A lifecycle running its first hop in `slot` since t0.
    private func running(_ slot: String? = "a") -> Lifecycle {
        var lifecycle = Lifecycle(timeouts: timeouts)
        _ = lifecycle.admit(slot: slot, activity: 0, now: t0)
        return lifecycle
    }

    // MARK: Running hops

    @Test("a running hop pauses in libcurl and resumes there, keeping its slot")
    func pauseRunning() {
        var lifecycle = running("a")
        #expect(lifecycle.pause(now: at(1_000)) == .pauseHop)
        #expect(lifecycle.isPaused)
        #expect(!lifecycle.isRunning)
        #expect(lifecycle.isInLibcurl)
        #expect(lifecycle.slot == "a")
        #expect(lifecycle.resume(activity: 0, now: at(2_000)) == .resumeHop)
        #expect(lifecycle.isRunning)
        #expect(!lifecycle.isPaused)
        #expect(lifecycle.slot == "a")
    }

    @Test("pausing twice, or resuming what is not paused, changes nothing")
    func idempotent() {
        var lifecycle = running()
        #expect(lifecycle.resume(activity: 0, now: at(500)) == nil)
        #expect(lifecycle.pause(now: at(1_000)) == .pauseHop)
        #expect(lifecycle.pause(now: at(1_500)) == nil)
        #expect(lifecycle.resume(activity: 0, now: at(2_000)) == .resumeHop)
        #expect(lifecycle.resume(activity: 0, now: at(2_500)) == nil)
    }

    @Test("a paused hop never stalls, and its stall timer starts afresh at the resume")
    func pausedDoesNotStall() {
        var lifecycle = running()
        _ = lifecycle.pause(now: at(1_000))
        #expect(lifecycle.checkTimers(now: at(60_000), activity: 0, wireBytes: { nil }) == nil)
        _ = lifecycle.resume(activity: 0, now: at(60_000))
        #expect(lifecycle.checkTimers(now: at(69_000), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(70_001), activity: 0, wireBytes: { nil }) == .stalled(.seconds(10)))
    }

    @Test("the whole-transfer budget is extended by the paused time, the current pause included")
    func budgetExtendedByPause() {
        var lifecycle = Lifecycle(timeouts: .init(connect: nil, total: .seconds(15), stall: nil))
        _ = lifecycle.admit(slot: "a", activity: 0, now: t0)
        #expect(lifecycle.budgetSpent(at: at(4_000)) == .seconds(4))
        _ = lifecycle.pause(now: at(4_000))
        #expect(lifecycle.budgetSpent(at: at(100_000)) == .seconds(4))
        #expect(lifecycle.checkTimers(now: at(100_000), activity: 0, wireBytes: { nil }) == nil)
        _ = lifecycle.resume(activity: 0, now: at(100_000))
        #expect(lifecycle.pausedTime == .seconds(96))
        // 4 s before the pause, 10.9 s after: 14.9 s of the 15 spent.
        #expect(lifecycle.checkTimers(now: at(110_900), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(111_000), activity: 0, wireBytes: { nil }) == .budgetSpent(.seconds(15)))
    }

    @Test("a running hop that was never paused spends its budget by the clock")
    func budgetWithoutPause() {
        var lifecycle = Lifecycle(timeouts: .init(connect: nil, total: .seconds(15), stall: nil))
        _ = lifecycle.admit(slot: "a", activity: 0, now: t0)
        #expect(lifecycle.checkTimers(now: at(14_900), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(15_000), activity: 0, wireBytes: { nil }) == .budgetSpent(.seconds(15)))
    }

    @Test("a later hop is sent with the budget its earlier hops spent, paused time not counted")
    func laterHopSpendsUnpausedTime() {
        var lifecycle = running()
        _ = lifecycle.pause(now: at(1_000))
        _ = lifecycle.resume(activity: 0, now: at(31_000))
        _ = lifecycle.hopEnded()
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(33_000)) == .send(spent: .seconds(3)))
    }

    @Test("a hop that ends while paused leaves the transfer idle and paused: the next hop is held")
    func hopEndsWhilePaused() {
        var lifecycle = running("a")
        _ = lifecycle.pause(now: at(1_000))
        #expect(lifecycle.hopEnded() == "a")
        #expect(lifecycle.isPaused)
        #expect(lifecycle.holdIfPaused() == true)
        #expect(lifecycle.slot == nil)
        #expect(lifecycle.resume(activity: 0, now: at(2_000)) == .startHop)
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(2_000)) == .send(spent: .seconds(1)))
    }

    // MARK: Before libcurl

    @Test("a hop waiting for a slot that pauses leaves the queue; resumed, it starts again")
    func pauseWaiting() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        lifecycle.queue(in: "a", now: t0)
        #expect(lifecycle.pause(now: at(1_000)) == .withdraw("a"))
        #expect(!lifecycle.isWaitingForSlot)
        #expect(lifecycle.slot == nil)
        // Held, it waits for no connection: no timer.
        #expect(lifecycle.checkTimers(now: at(60_000), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.resume(activity: 0, now: at(60_000)) == .startHop)
        lifecycle.queue(in: "a", now: at(60_000))
        #expect(lifecycle.checkTimers(now: at(74_900), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(75_000), activity: 0, wireBytes: { nil }) == .waitedForConnection(.seconds(15)))
    }

    @Test("a transfer paused before its first hop holds the hop; its budget starts when the hop is sent")
    func pauseBeforeAdmission() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        #expect(lifecycle.pause(now: t0) == PauseActionNone.value)
        #expect(lifecycle.holdIfPaused() == true)
        #expect(lifecycle.resume(activity: 0, now: at(30_000)) == .startHop)
        #expect(lifecycle.holdIfPaused() == false)
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(30_000)) == .send(spent: .zero))
        #expect(lifecycle.budgetStart == at(30_000))
        #expect(lifecycle.pausedTime == .zero)
    }

    @Test("a pause while a challenge is with its handler holds the retry hop")
    func pauseAwaitingChallenge() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.awaitChallenge()
        #expect(lifecycle.pause(now: at(1_000)) == PauseActionNone.value)
        #expect(lifecycle.challengeAnswered() == true)
        #expect(lifecycle.holdIfPaused() == true)
        #expect(lifecycle.resume(activity: 0, now: at(2_000)) == .startHop)
    }

    @Test("a resume while a challenge is with its handler leaves it there")
    func resumeAwaitingChallenge() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.awaitChallenge()
        _ = lifecycle.pause(now: at(1_000))
        #expect(lifecycle.resume(activity: 0, now: at(2_000)) == ResumeActionNone.value)
        #expect(lifecycle.challengeAnswered() == true)
        #expect(lifecycle.holdIfPaused() == false)
    }

    // MARK: Ending

    @Test("cancelling a paused hop takes it out of libcurl and gives back its slot")
    func finishPaused() {
        var lifecycle = running("a")
        _ = lifecycle.pause(now: at(1_000))
        guard case .removeFromMulti("a") = lifecycle.finish() else {
            Issue.record("expected a removal")
            return
        }
        #expect(lifecycle.isFinished)
    }

    @Test("cancelling a held hop cleans up nothing: it is neither queued nor in libcurl")
    func finishHeld() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        lifecycle.queue(in: "a", now: t0)
        _ = lifecycle.pause(now: at(1_000))
        guard case .nothing = lifecycle.finish() else {
            Issue.record("expected nothing to clean up")
            return
        }
    }

    @Test("pausing or resuming a finished transfer does nothing")
    func finishedIgnoresPause() {
        var lifecycle = running()
        _ = lifecycle.finish()
        #expect(lifecycle.pause(now: at(1_000)) == nil)
        #expect(!lifecycle.isPaused)
        var paused = running()
        _ = paused.pause(now: at(1_000))
        _ = paused.finish()
        #expect(paused.resume(activity: 0, now: at(2_000)) == nil)
        #expect(paused.holdIfPaused() == false)
    }
}

/// `.none` spelled so that it cannot be read as `Optional.none`.
private enum PauseActionNone {
    static var value: TransferState.StateMachine<String>.PauseAction { .none }
}

private enum ResumeActionNone {
    static var value: TransferState.StateMachine<String>.ResumeAction { .none }
}
