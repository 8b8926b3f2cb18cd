import Testing
import WebImageCore

@testable import WebImageTransport

/// The transfer's lifecycle driven with plain values: a made-up clock, a string for the
/// connection slot, no libcurl.
@Suite("Transfer lifecycle: every transition and what it asks the loop to do")
struct TransferLifecycleTests {
    typealias Lifecycle = TransferState.StateMachine<String>

    let t0 = ContinuousClock.now
    let timeouts = TransportRequest.Timeouts(connect: .seconds(10), total: .seconds(15), stall: .seconds(10))

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// A lifecycle running its first hop in `slot` since t0.
    private func running(_ slot: String? = "a", timeouts: TransportRequest.Timeouts? = nil) -> Lifecycle {
        var lifecycle = Lifecycle(timeouts: timeouts ?? self.timeouts)
        _ = lifecycle.admit(slot: slot, activity: 0, now: t0)
        return lifecycle
    }

    // MARK: Admission

    @Test("an idle hop admitted at once runs, with nothing of its budget spent")
    func admitAtOnce() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        #expect(lifecycle.admit(slot: "a", activity: 0, now: t0) == .send(spent: .zero))
        #expect(lifecycle.isRunning)
        #expect(lifecycle.slot == "a")
        #expect(lifecycle.budgetStart == t0)
    }

    @Test("a first hop that waited for a slot gets its whole budget: the wait is not spent")
    func waitDoesNotSpendTheBudget() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        lifecycle.queue(in: "a", now: t0)
        #expect(lifecycle.isWaitingForSlot)
        #expect(lifecycle.slot == "a")
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(14_000)) == .send(spent: .zero))
        #expect(lifecycle.budgetStart == at(14_000))
    }

    @Test("a later hop spends the budget the first one started")
    func laterHopSpendsTheBudget() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(4_000)) == .send(spent: .seconds(4)))
    }

    @Test("a later hop whose budget is gone is not sent, and holds neither a slot nor a place")
    func laterHopOutOfBudget() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.queue(in: "a", now: at(1_000))
        #expect(lifecycle.admit(slot: "a", activity: 0, now: at(15_000)) == .fail(.timedOut(.seconds(15))))
        // Handed out of the queue and not sent: the caller gives the slot back, and
        // finishing has nothing left to clean up.
        #expect(lifecycle.slot == nil)
        #expect(!lifecycle.isWaitingForSlot)
        guard case .nothing = lifecycle.finish() else {
            Issue.record("expected nothing to clean up")
            return
        }
    }

    // MARK: Hops

    @Test("a hop that ends gives back its slot and leaves the transfer idle")
    func hopEnded() {
        var lifecycle = running("a")
        #expect(lifecycle.hopEnded() == "a")
        #expect(!lifecycle.isRunning)
        #expect(lifecycle.hopEnded() == nil)
    }

    @Test("a file: hop runs without a slot")
    func fileHop() {
        var lifecycle = running(nil)
        #expect(lifecycle.isRunning)
        #expect(lifecycle.slot == nil)
        #expect(lifecycle.hopEnded() == nil)
    }

    // MARK: Challenges

    @Test("a challenge answered returns the transfer to idle; an answer after it ended is dropped")
    func challenge() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.awaitChallenge()
        #expect(lifecycle.challengeAnswered() == true)
        lifecycle.awaitChallenge()
        _ = lifecycle.finish()
        #expect(lifecycle.challengeAnswered() == false)
    }

    @Test("the request's own credential is an answer given while idle")
    func ownCredential() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        #expect(lifecycle.challengeAnswered() == true)
    }

    // MARK: Finishing, cancel in each state

    @Test("finishing an idle transfer cleans up nothing")
    func finishIdle() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        guard case .nothing = lifecycle.finish() else {
            Issue.record("expected nothing to clean up")
            return
        }
        #expect(lifecycle.isFinished)
    }

    @Test("finishing a waiting transfer withdraws it from its queue")
    func finishWaiting() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        lifecycle.queue(in: "a", now: t0)
        guard case .withdraw("a") = lifecycle.finish() else {
            Issue.record("expected a withdrawal")
            return
        }
    }

    @Test("finishing a running transfer takes it out of libcurl and gives back its slot")
    func finishRunning() {
        var lifecycle = running("a")
        guard case .removeFromMulti("a") = lifecycle.finish() else {
            Issue.record("expected a removal")
            return
        }
    }

    @Test("finishing a transfer awaiting a challenge answer cleans up nothing")
    func finishAwaitingChallenge() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.awaitChallenge()
        guard case .nothing = lifecycle.finish() else {
            Issue.record("expected nothing to clean up")
            return
        }
    }

    @Test("a transfer finishes once: the second finish does nothing")
    func finishOnce() {
        var lifecycle = running()
        #expect(lifecycle.finish() != nil)
        #expect(lifecycle.finish() == nil)
        #expect(lifecycle.isFinished)
        #expect(lifecycle.checkTimers(now: at(60_000), activity: 0, wireBytes: { nil }) == nil)
    }

    // MARK: Timers

    @Test("a first hop waiting its whole-transfer timeout fails as waitedForConnection")
    func waitedForConnection() {
        var lifecycle = Lifecycle(timeouts: timeouts)
        lifecycle.queue(in: "a", now: t0)
        #expect(lifecycle.checkTimers(now: at(14_900), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(15_000), activity: 0, wireBytes: { nil }) == .waitedForConnection(.seconds(15)))
    }

    @Test("a later hop waiting past the budget fails as timedOut")
    func laterHopWaitingTimesOut() {
        var lifecycle = running()
        _ = lifecycle.hopEnded()
        lifecycle.queue(in: "a", now: at(10_000))
        #expect(lifecycle.checkTimers(now: at(14_000), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(15_000), activity: 0, wireBytes: { nil }) == .timedOut(.seconds(15)))
    }

    @Test("no total timeout: a waiting transfer waits for ever")
    func noTotalTimeout() {
        var lifecycle = Lifecycle(timeouts: .init(connect: nil, total: nil, stall: nil))
        lifecycle.queue(in: "a", now: t0)
        #expect(lifecycle.checkTimers(now: at(3_600_000), activity: 0, wireBytes: { nil }) == nil)
    }

    @Test("a running hop with nothing arriving stalls after the stall timeout")
    func stalls() {
        var lifecycle = running()
        #expect(lifecycle.checkTimers(now: at(10_000), activity: 0, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(10_001), activity: 0, wireBytes: { nil }) == .stalled(.seconds(10)))
    }

    // The stall tests below run past the 15 s budget, which the lifecycle checks too
    // (TransferLifecyclePausingTests): they go without one.

    @Test("header and body activity restarts the stall timer")
    func activityFeedsTheTimer() {
        var lifecycle = running(timeouts: .init(connect: nil, total: nil, stall: .seconds(10)))
        #expect(lifecycle.checkTimers(now: at(9_000), activity: 5, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(18_000), activity: 5, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(19_001), activity: 5, wireBytes: { nil }) == .stalled(.seconds(10)))
    }

    @Test("the stall watch starts once the hop has its connection: a slow handshake is the connect timeout's")
    func stallWatchStartsWhenConnected() {
        var lifecycle = running(timeouts: .init(connect: nil, total: nil, stall: .seconds(10)))
        // Thirty seconds getting a connection: no stall.
        #expect(lifecycle.checkTimers(now: at(30_000), activity: 0, connecting: true, wireBytes: { nil }) == nil)
        // Connected and the request sent (the callback counts as activity): ten quiet
        // seconds from then, a stall.
        #expect(lifecycle.checkTimers(now: at(30_100), activity: 1, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(40_000), activity: 1, wireBytes: { nil }) == nil)
        #expect(lifecycle.checkTimers(now: at(40_101), activity: 1, wireBytes: { nil }) == .stalled(.seconds(10)))
    }

    @Test("bytes on the connection that libcurl does not pass on still feed the stall timer")
    func wireBytesFeedTheTimer() {
        var lifecycle = running(timeouts: .init(connect: nil, total: nil, stall: .seconds(10)))
        var wire: Int64 = 100
        for second in 1...30 {
            wire += 65_536
            let received = wire
            #expect(lifecycle.checkTimers(now: at(second * 1_000), activity: 0, wireBytes: { received }) == nil, "second \(second)")
        }
        // The flood stops: ten quiet seconds later, a stall.
        let last = wire
        #expect(lifecycle.checkTimers(now: at(40_001), activity: 0, wireBytes: { last }) == .stalled(.seconds(10)))
    }

    @Test("the connection is read only when the transfer's own counter has not moved")
    func wireReadOnlyWhenQuiet() {
        var lifecycle = running()
        var reads = 0
        _ = lifecycle.checkTimers(
            now: at(100), activity: 1,
            wireBytes: {
                reads += 1
                return 0
            })
        #expect(reads == 0)
        _ = lifecycle.checkTimers(
            now: at(200), activity: 1,
            wireBytes: {
                reads += 1
                return 0
            })
        #expect(reads == 1)
    }

    @Test("no stall timeout: a quiet running hop is left to libcurl's timeouts")
    func noStallTimeout() {
        var lifecycle = Lifecycle(timeouts: .init(connect: nil, total: nil, stall: nil))
        _ = lifecycle.admit(slot: "a", activity: 0, now: t0)
        #expect(lifecycle.checkTimers(now: at(3_600_000), activity: 0, wireBytes: { nil }) == nil)
    }
}
