import Testing
import WebImageCore

@testable import WebImageTransport

/// When a hop waits for a connection: the decision (``SlotScheduler/startHop(_:lane:limit:now:)``
/// answering `.queued`) that the event loop tells monitors as
/// `transferIsWaitingForConnection`. Pure bookkeeping: no libcurl, no clock.
@Suite("Waiting for a connection: a hop waits when its host's slots are taken or others wait before it, never otherwise")
struct WaitingForConnectionTests {
    private static let host = AdmissionControl<Hop>.Lane(origin: "http://a:80", multiplexed: false)
    private static let otherHost = AdmissionControl<Hop>.Lane(origin: "http://b:80", multiplexed: false)
    private let now = ContinuousClock.now

    @Test("under a limit of one, the second hop to a host waits; a hop to another host does not")
    func fullHostOnly() {
        var scheduler = SlotScheduler<Hop>()
        #expect(start(Hop(), Self.host, limit: 1, in: &scheduler) == .sent)
        #expect(start(Hop(), Self.host, limit: 1, in: &scheduler) == .waits)
        #expect(start(Hop(), Self.otherHost, limit: 1, in: &scheduler) == .sent)
        #expect(scheduler.waitingCount == 1)
    }

    @Test("under a limit of two, the second hop finds a free slot and the third waits")
    func freeSlotDoesNotWait() {
        var scheduler = SlotScheduler<Hop>()
        #expect(start(Hop(), Self.host, limit: 2, in: &scheduler) == .sent)
        #expect(start(Hop(), Self.host, limit: 2, in: &scheduler) == .sent)
        #expect(start(Hop(), Self.host, limit: 2, in: &scheduler) == .waits)
    }

    @Test("a hop started while a slot has just come free still waits behind the hops queued before it")
    func neverPassesAWaiter() {
        var scheduler = SlotScheduler<Hop>()
        let first = Hop()
        #expect(start(first, Self.host, limit: 1, in: &scheduler) == .sent)
        let queued = Hop()
        #expect(start(queued, Self.host, limit: 1, in: &scheduler) == .waits)
        let ended = scheduler.hopEnded(first)
        #expect(ended)
        // Before the loop hands the free slot out, another hop starts: it waits too.
        #expect(start(Hop(), Self.host, limit: 1, in: &scheduler) == .waits)
        #expect(scheduler.next(now: now)?.item === queued)
    }

    @Test("a paused transfer's hop is held for its resume, not told as waiting; resumed into a full host, it waits")
    func pausedIsHeldNotWaiting() {
        var scheduler = SlotScheduler<Hop>()
        #expect(start(Hop(), Self.host, limit: 1, in: &scheduler) == .sent)
        let paused = Hop()
        #expect(scheduler.pause(paused, now: now) == .outsideLibcurl)
        #expect(start(paused, Self.host, limit: 1, in: &scheduler) == .held)
        #expect(scheduler.waitingCount == 0)
        #expect(scheduler.resume(paused, now: now) == .startHop)
        #expect(start(paused, Self.host, limit: 1, in: &scheduler) == .waits)
    }

    @Test("a waiter paused leaves the queue; resumed it waits again: a second wait")
    func pausedWaiterWaitsAgain() {
        var scheduler = SlotScheduler<Hop>()
        #expect(start(Hop(), Self.host, limit: 1, in: &scheduler) == .sent)
        let waiter = Hop()
        #expect(start(waiter, Self.host, limit: 1, in: &scheduler) == .waits)
        #expect(scheduler.pause(waiter, now: now) == .outsideLibcurl)
        #expect(scheduler.waitingCount == 0)
        #expect(scheduler.resume(waiter, now: now) == .startHop)
        #expect(start(waiter, Self.host, limit: 1, in: &scheduler) == .waits)
        #expect(scheduler.waitingCount == 1)
    }

    @Test("no limit (0), and a hop that needs no connection (file:), never wait")
    func unlimitedNeverWaits() {
        var scheduler = SlotScheduler<Hop>()
        for _ in 0..<50 { #expect(start(Hop(), Self.host, limit: 0, in: &scheduler) == .sent) }
        #expect(start(Hop(), nil, limit: 1, in: &scheduler) == .sent)
        #expect(scheduler.waitingCount == 0)
    }

    // MARK: Helpers

    private enum Outcome: Equatable {
        case sent, waits, held, failed
    }

    private func start(_ hop: Hop, _ lane: AdmissionControl<Hop>.Lane?, limit: Int, in scheduler: inout SlotScheduler<Hop>) -> Outcome {
        switch scheduler.startHop(hop, lane: lane, limit: limit, now: now) {
        case .held: .held
        case .queued: .waits
        case .admitted(.send, _): .sent
        case .admitted(.fail, _): .failed
        }
    }
}

/// A transfer as the scheduler sees it, with no timeouts.
private final class Hop: SlotScheduled {
    var lifecycle = TransferState.StateMachine<AdmissionControl<Hop>.LaneQueue>(
        timeouts: .init(connect: nil, total: nil, stall: nil))
    let activity = 0
}
