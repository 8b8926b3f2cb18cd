import Foundation
import WebImageCore

/// A transfer as ``SlotScheduler`` sees it: its lifecycle, and the activity count its
/// stall watch starts from when a hop enters libcurl.
protocol SlotScheduled: AnyObject {
    var lifecycle: TransferState.StateMachine<AdmissionControl<Self>.LaneQueue> { get set }
    /// The transfer's header-line and body-chunk count.
    var activity: Int { get }
}

/// Who holds the connection slots, and who gets one as it comes free: the hand-over
/// between ``AdmissionControl`` (the lanes and their queues) and each transfer's
/// ``TransferState.StateMachine``, as a pure state machine the event loop drives.
///
/// The loop reports what happened to a transfer (a hop is to start, a hop ended, the
/// transfer paused, resumed or ended) and does what comes back in libcurl: put a hop in,
/// pause it, take it out, or end the transfer with an error. The rules it keeps:
///
/// - Per lane, at most the lane's limit of hops are in libcurl; the others wait in a FIFO
///   and a new hop never passes one that waits.
/// - A paused hop still in libcurl keeps its slot (its connection, or over HTTP/2 its
///   stream, stays open); one paused while it waits leaves the queue, so it holds up no
///   one, and queues again at the back when resumed. A paused transfer never waits in a
///   queue.
/// - A slot comes free when a hop leaves libcurl (it ended, or its transfer did, or it
///   was let go while paused) or is handed out and not sent (its budget was gone); it
///   goes to the first waiting transfer at the next ``next(now:)``, which the loop calls
///   until it returns `nil` after every batch of events, before it waits for libcurl.
/// - A transfer ends once; its slot, or its place in a queue, is given back as it does.
/// - A lane with nothing running or waiting is forgotten.
///
/// No libcurl, no clock, no I/O: `SlotHandOverTests` drives every interleaving of these
/// events for a few transfers and checks the rules after each step. Loop thread only.
struct SlotScheduler<Item: SlotScheduled> {
    typealias Lane = AdmissionControl<Item>.Lane
    typealias Slot = AdmissionControl<Item>.LaneQueue
    typealias Lifecycle = TransferState.StateMachine<Slot>

    /// What a hop about to enter libcurl comes to.
    enum Start {
        /// The transfer is paused: the hop is held, in no queue, until it resumes.
        case held
        /// Its lane has no free slot: the hop waits in the lane's queue.
        case queued
        /// It may enter libcurl now, holding `slot` (`nil`: a `file:` hop, which needs no
        /// connection): `.send` puts it in; `.fail` (the budget an earlier hop started is
        /// gone) ends the transfer, the slot given back.
        case admitted(Lifecycle.Admission, slot: Slot?)
    }

    /// What pausing asks of libcurl.
    enum Pause: Equatable {
        /// Nothing: no hop is in libcurl (a waiting hop left its queue).
        case outsideLibcurl
        /// Pause the hop in libcurl (it keeps its slot).
        case pauseHop
    }

    /// What ending a transfer asks of libcurl.
    enum Finish: Equatable {
        /// Nothing: no hop is in libcurl.
        case outsideLibcurl
        /// Take the hop out of libcurl (its slot is free again).
        case removeHop
    }

    private(set) var admission = AdmissionControl<Item>()
    /// Hops in libcurl (running or paused) that have a stall or a whole-transfer timeout:
    /// the loop's timer check watches them.
    private(set) var timedHops = 0

    /// Transfers waiting for a slot.
    var waitingCount: Int { admission.waitingCount }

    /// Whether the timer check has anything to watch: a hop in libcurl with a timeout,
    /// or a transfer waiting for a slot.
    var watchesTimers: Bool { timedHops > 0 || admission.waitingCount > 0 }

    // MARK: Events

    /// The transfer's next hop is to start, in `lane` (`nil`: it needs no connection)
    /// whose limit is `limit` (`<= 0`: none).
    mutating func startHop(_ item: Item, lane: Lane?, limit: Int, now: ContinuousClock.Instant) -> Start {
        // Paused between hops (or before the first): the hop starts when resumed.
        if item.lifecycle.holdIfPaused() { return .held }
        guard let lane else { return .admitted(admit(item, slot: nil, now: now), slot: nil) }
        let (admitted, queue) = admission.enter(item, lane: lane, limit: limit)
        guard admitted else {
            item.lifecycle.queue(in: queue, now: now)
            return .queued
        }
        return .admitted(admit(item, slot: queue, now: now), slot: queue)
    }

    /// The first waiting transfer of a lane that has a free slot, taken out of its queue
    /// and admitted to `slot` (`.send`, or `.fail` when its budget is gone, the slot given
    /// back); `nil` when no lane has both.
    mutating func next(now: ContinuousClock.Instant) -> (item: Item, slot: Slot, admission: Lifecycle.Admission)? {
        guard let (item, queue) = admission.next() else { return nil }
        return (item, queue, admit(item, slot: queue, now: now))
    }

    /// libcurl reported the transfer's hop done: its slot is free. Whether the hop was in
    /// libcurl, to be taken out of the multi handle.
    mutating func hopEnded(_ item: Item) -> Bool {
        guard item.lifecycle.isInLibcurl else { return false }
        leftLibcurl(item, slot: item.lifecycle.hopEnded())
        return true
    }

    /// The transfer is to pause; `nil` when that changes nothing (already paused, or
    /// ended).
    mutating func pause(_ item: Item, now: ContinuousClock.Instant) -> Pause? {
        guard let action = item.lifecycle.pause(now: now) else { return nil }
        switch action {
        case .none:
            return .outsideLibcurl
        case .pauseHop:
            return .pauseHop
        case .withdraw(let queue):
            admission.withdraw(item, from: queue)
            return .outsideLibcurl
        }
    }

    /// The transfer is to resume; `nil` when that changes nothing (not paused, or
    /// ended). `.startHop`: the held hop starts when the loop calls ``startHop(_:lane:limit:now:)``,
    /// at the back of its lane's queue.
    mutating func resume(_ item: Item, now: ContinuousClock.Instant) -> Lifecycle.ResumeAction? {
        item.lifecycle.resume(activity: item.activity, now: now)
    }

    /// The transfer's hop has left libcurl and the transfer stays paused (its body waits
    /// in the transfer, or was let go): the next hop, or the end, comes with the resume.
    /// The transfer must be paused already (``pause(_:now:)``).
    mutating func holdIfPaused(_ item: Item) {
        _ = item.lifecycle.holdIfPaused()
    }

    /// The transfer ends; `nil` when it had already ended (the delegate is told once).
    /// Its slot, or its place in a queue, is given back.
    mutating func finish(_ item: Item) -> Finish? {
        guard let cleanup = item.lifecycle.finish() else { return nil }
        switch cleanup {
        case .nothing:
            return .outsideLibcurl
        case .withdraw(let queue):
            admission.withdraw(item, from: queue)
            return .outsideLibcurl
        case .removeFromMulti(let slot):
            leftLibcurl(item, slot: slot)
            return .removeHop
        }
    }

    /// The waiting transfers a whole-transfer timeout ends at `now`, with why; the loop
    /// ends each (``finish(_:)``).
    func expiredWaiting(now: ContinuousClock.Instant) -> [(item: Item, expiry: Lifecycle.TimerExpiry)] {
        guard admission.waitingCount > 0 else { return [] }
        var expired: [(item: Item, expiry: Lifecycle.TimerExpiry)] = []
        for item in admission.waitingItems {
            if let expiry = item.lifecycle.checkTimers(now: now, activity: item.activity, wireBytes: { nil }) {
                expired.append((item, expiry))
            }
        }
        return expired
    }

    // MARK: Slots

    private mutating func admit(_ item: Item, slot: Slot?, now: ContinuousClock.Instant) -> Lifecycle.Admission {
        let admitted = item.lifecycle.admit(slot: slot, activity: item.activity, now: now)
        switch admitted {
        case .send:
            if item.lifecycle.timeouts.hasLoopTimer { timedHops += 1 }
        case .fail:
            // Not sent with a few milliseconds left: the slot goes to the next in line.
            if let slot { admission.leave(slot) }
        }
        return admitted
    }

    private mutating func leftLibcurl(_ item: Item, slot: Slot?) {
        if item.lifecycle.timeouts.hasLoopTimer { timedHops -= 1 }
        if let slot { admission.leave(slot) }
    }
}

extension TransportRequest.Timeouts {
    /// Whether the loop's timer check watches a hop with these timeouts.
    var hasLoopTimer: Bool { stall != nil || total != nil }
}
