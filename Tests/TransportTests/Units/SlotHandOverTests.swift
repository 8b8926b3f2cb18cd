import Testing
import WebImageCore

@testable import WebImageTransport

/// The connection-slot hand-over (``SlotScheduler``) driven the way the event loop drives
/// it, with plain values: no libcurl, no clock (every event happens at one instant).
/// One test walks every reachable state of a few transfers on one lane, breadth first,
/// and checks the rules after each step; the others tell single stories.
@Suite("Slot hand-over: every interleaving of starts, pauses, resumes and ends keeps the slots right")
struct SlotHandOverTests {
    // MARK: Every interleaving

    /// About 3,400 states and 25,000 transitions for each limit, all reached within 12
    /// events: every sequence of events, however long, goes through them (over 10^11
    /// sequences of up to 15 events).
    @Test(
        "three transfers, one slot or two: the rules hold after every event of every interleaving",
        arguments: [1, 2])
    func everyInterleaving(limit: Int) {
        let exploration = HandOver.explore(transfers: 3, limit: limit)
        #expect(exploration.problems.isEmpty, "\(exploration.problems.joined(separator: "\n"))")
        // The walk ended because every state had been seen, not because it stopped early.
        #expect(exploration.complete)
        #expect(exploration.states > 3_000)
        #expect(exploration.transitions > 20_000)
    }

    // MARK: Stories

    @Test("a transfer paused while it waits for a connection gives up its place, and the next one gets the slot")
    func pausedWhileWaiting() {
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(0), .start(1), .start(2))
        #expect(model.waiting == [1, 2])
        model.run(.pause(1))
        #expect(model.waiting == [2])
        #expect(model.transfers[1].lifecycle.slot == nil)
        model.run(.hopEnded(0), .loopPass)
        #expect(model.handedOut == [2])
        #expect(model.transfers[2].lifecycle.isRunning)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a slot freed while the first waiter is paused goes to the second")
    func slotFreedWhileFirstWaiterPaused() {
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(0), .start(1), .start(2))
        // The slot comes free, and before the loop hands it out the first waiter pauses.
        model.run(.hopEnded(0), .complete(0), .pause(1), .loopPass)
        #expect(model.handedOut == [2])
        #expect(model.transfers[2].lifecycle.isRunning)
        #expect(!model.transfers[1].lifecycle.isWaitingForSlot)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a resumed transfer queues again at the back, and runs when its turn comes")
    func resumedQueuesAtTheBack() {
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(0), .start(1), .pause(1), .start(2), .resume(1))
        #expect(model.waiting == [2, 1])
        model.run(.hopEnded(0), .complete(0), .loopPass)
        model.run(.hopEnded(2), .complete(2), .loopPass)
        #expect(model.handedOut == [2, 1])
        #expect(model.transfers[1].lifecycle.isRunning)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a transfer resumed while a slot is free and no one waits starts at once")
    func resumedIntoAFreeSlot() {
        let model = HandOver(transfers: 2, limit: 1)
        model.run(.start(0), .start(1), .pause(1), .hopEnded(0), .complete(0), .loopPass)
        #expect(model.scheduler.admission.laneCount == 0)
        model.run(.resume(1))
        #expect(model.transfers[1].lifecycle.isRunning)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a running hop that pauses keeps its slot: the waiters wait until it ends")
    func pausedRunningHopKeepsItsSlot() {
        let model = HandOver(transfers: 2, limit: 1)
        model.run(.start(0), .start(1), .pause(0), .loopPass)
        #expect(model.handedOut.isEmpty)
        #expect(model.transfers[0].lifecycle.slot != nil)
        model.run(.resume(0), .hopEnded(0), .complete(0), .loopPass)
        #expect(model.handedOut == [1])
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a paused hop let go past its byte limit gives its slot to the next in line, and its resume queues behind")
    func letGoWhilePaused() {
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(0), .start(1), .pause(0), .hopEnded(0), .loopPass)
        #expect(model.handedOut == [1])
        model.run(.letGo(0), .start(2), .resume(0))
        #expect(model.waiting == [2, 0])
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a hop that ended while its body waits is parked: the resume ends the transfer without a new hop")
    func parkedEndsAtTheResume() {
        let model = HandOver(transfers: 2, limit: 1)
        model.run(.start(0), .start(1), .pause(0), .hopEnded(0), .park(0), .loopPass)
        #expect(model.handedOut == [1])
        model.run(.resume(0))
        #expect(model.transfers[0].lifecycle.isFinished)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a hop whose budget is gone when its turn comes is not sent, and the slot goes on to the next")
    func budgetGoneAtItsTurn() {
        // Transfer 2's budget is gone for every hop after its first.
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(2), .hopEnded(2), .start(0), .nextHop(2), .start(1))
        #expect(model.waiting == [2, 1])
        model.run(.hopEnded(0), .complete(0), .loopPass)
        #expect(model.handedOut == [2, 1])
        #expect(model.transfers[2].lifecycle.isFinished)
        #expect(model.transfers[1].lifecycle.isRunning)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("the timer check reports the waiting transfers out of time, and not the paused ones")
    func waitingTimeouts() {
        let model = HandOver(transfers: 3, limit: 1)
        model.run(.start(0), .start(2), .start(1))
        let expired = model.scheduler.expiredWaiting(now: model.now).map { ($0.item.name, $0.expiry) }
        #expect(expired.map(\.0) == [2])
        #expect(expired.first?.1 == .waitedForConnection(.zero))
        model.run(.pause(2))
        #expect(model.scheduler.expiredWaiting(now: model.now).isEmpty)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }

    @Test("a transfer ends once: its slot is given back then, and a second end changes nothing")
    func endsOnce() {
        let model = HandOver(transfers: 2, limit: 1)
        model.run(.start(0), .start(1), .cancel(0))
        #expect(model.scheduler.finish(model.transfers[0]) == nil)
        model.run(.loopPass)
        #expect(model.handedOut == [1])
        model.run(.cancel(1), .cancel(1))
        #expect(model.scheduler.admission.laneCount == 0)
        #expect(model.scheduler.timedHops == 0)
        #expect(model.problems.isEmpty, "\(model.problems)")
    }
}

// MARK: - The model

/// One transfer as the scheduler sees it.
private final class Transfer: SlotScheduled {
    let name: Int
    var lifecycle: TransferState.StateMachine<AdmissionControl<Transfer>.LaneQueue>
    let activity = 0

    init(name: Int, timeouts: TransportRequest.Timeouts) {
        self.name = name
        lifecycle = TransferState.StateMachine(timeouts: timeouts)
    }
}

/// What happens to the transfers, as the event loop reports it to the scheduler.
private enum Event: Hashable, CustomStringConvertible {
    /// The transfer begins: its first hop is to start.
    case start(Int)
    /// The task is paused (a command the loop takes).
    case pause(Int)
    /// The task is resumed; a held hop starts again (a parked transfer ends).
    case resume(Int)
    /// libcurl reports the hop done, running or paused, and the loop takes it out: the
    /// hop's outcome (one of the next five) follows.
    case hopEnded(Int)
    /// A redirect, or a retry, starts the next hop.
    case nextHop(Int)
    /// The transfer completes with the hop's outcome.
    case complete(Int)
    /// A 401 goes to the challenge handler.
    case challenge(Int)
    /// A paused hop's body was cut off at its byte limit: the transfer stays paused, and
    /// the resume starts a hop for the rest.
    case letGo(Int)
    /// The hop ended while its body waited in the transfer: it stays paused, and the
    /// resume completes it.
    case park(Int)
    /// The challenge handler answers: the retry hop starts, unless the transfer ended.
    case answer(Int)
    /// The task is cancelled (or a running hop's timer ends it): ends it, if not already.
    case cancel(Int)
    /// The timer check ends the waiting transfers out of time.
    case timers
    /// The loop hands the free slots to the waiting transfers (``CurlEventLoop/admitWaiting()``).
    case loopPass

    var description: String {
        switch self {
        case .start(let name): "start(\(name))"
        case .pause(let name): "pause(\(name))"
        case .resume(let name): "resume(\(name))"
        case .hopEnded(let name): "hopEnded(\(name))"
        case .nextHop(let name): "nextHop(\(name))"
        case .complete(let name): "complete(\(name))"
        case .challenge(let name): "challenge(\(name))"
        case .letGo(let name): "letGo(\(name))"
        case .park(let name): "park(\(name))"
        case .answer(let name): "answer(\(name))"
        case .cancel(let name): "cancel(\(name))"
        case .timers: "timers"
        case .loopPass: "loopPass"
        }
    }
}

/// A few transfers on one lane, a ``SlotScheduler`` and the loop's side of each event,
/// with the rules checked after each. Transfer 0 has a whole-transfer budget it never
/// spends, transfer 1 none, and transfer 2 one that is gone as soon as it starts: its
/// later hops are not sent, and it times out whenever it waits.
private final class HandOver {
    enum Phase: Int {
        case notStarted
        case active
        case ended
    }

    struct Exploration {
        var states = 0
        var transitions = 0
        var depth = 0
        /// Every reachable state was visited.
        var complete = false
        var problems: [String] = []
    }

    static let lane = AdmissionControl<Transfer>.Lane(origin: "http://a:80", multiplexed: false)

    let limit: Int
    let now = ContinuousClock.now
    var scheduler = SlotScheduler<Transfer>()
    let transfers: [Transfer]
    private(set) var phase: [Phase]
    /// The hop ended, its outcome not yet known.
    private var betweenHops: [Bool]
    /// Paused after its last hop ended: the resume completes it.
    private var parked: [Bool]
    /// A challenge is with the handler, which will answer.
    private var challengePending: [Bool]
    /// Transfers handed a slot out of a queue, in order.
    private(set) var handedOut: [Int] = []
    private(set) var problems: [String] = []
    /// ``waiting`` as the last check saw it.
    private var checkedWaiting: [Int] = []

    init(transfers count: Int, limit: Int) {
        self.limit = limit
        transfers = (0..<count).map { name in
            let total: Duration? =
                switch name {
                case 0: .seconds(10)
                case 1: nil
                default: .zero
                }
            return Transfer(name: name, timeouts: .init(connect: nil, total: total, stall: nil))
        }
        phase = Array(repeating: .notStarted, count: count)
        betweenHops = Array(repeating: false, count: count)
        parked = Array(repeating: false, count: count)
        challengePending = Array(repeating: false, count: count)
    }

    /// The transfers waiting in the lane's queue, in order.
    var waiting: [Int] { scheduler.admission.waitingItems.map(\.name) }

    func run(_ events: Event...) {
        for event in events { step(event) }
    }

    /// Does `event` and checks the rules.
    func step(_ event: Event) {
        apply(event)
        checkedWaiting = waiting
        check(afterLoopPass: event == .loopPass, waiting: checkedWaiting)
    }

    // MARK: Events

    /// The events that can happen now.
    func possibleEvents() -> [Event] {
        var events: [Event] = []
        for transfer in transfers {
            let name = transfer.name
            let lifecycle = transfer.lifecycle
            if challengePending[name] { events.append(.answer(name)) }
            switch phase[name] {
            case .notStarted:
                events.append(.start(name))
            case .ended:
                break
            case .active:
                events.append(lifecycle.isPaused ? .resume(name) : .pause(name))
                if lifecycle.isInLibcurl { events.append(.hopEnded(name)) }
                if betweenHops[name] {
                    events += [.nextHop(name), .complete(name), .letGo(name), .park(name)]
                    // One transfer is enough to put a challenge between two hops.
                    if name == 0 { events.append(.challenge(name)) }
                }
                events.append(.cancel(name))
            }
        }
        if !scheduler.expiredWaiting(now: now).isEmpty { events.append(.timers) }
        // A pass with no one waiting and no free slot noted changes nothing.
        if scheduler.waitingCount > 0 || scheduler.admission.queue(of: Self.lane).map(scheduler.admission.isReady) == true {
            events.append(.loopPass)
        }
        return events
    }

    private func apply(_ event: Event) {
        switch event {
        case .start(let name):
            phase[name] = .active
            startHop(name)
        case .pause(let name):
            let transfer = transfers[name]
            let inLibcurl = transfer.lifecycle.isInLibcurl
            let pause = scheduler.pause(transfer, now: now)
            if pause != (inLibcurl ? .pauseHop : .outsideLibcurl) {
                problem("pausing transfer \(name) asked \(String(describing: pause)) of libcurl")
            }
        case .resume(let name):
            guard let action = scheduler.resume(transfers[name], now: now) else {
                problem("resuming the paused transfer \(name) changed nothing")
                return
            }
            guard action == .startHop else { return }
            if parked[name] {
                parked[name] = false
                complete(name)
            } else {
                startHop(name)
            }
        case .hopEnded(let name):
            if !scheduler.hopEnded(transfers[name]) { problem("the hop of transfer \(name) was not in libcurl") }
            betweenHops[name] = true
        case .nextHop(let name):
            betweenHops[name] = false
            startHop(name)
        case .complete(let name):
            complete(name)
        case .challenge(let name):
            betweenHops[name] = false
            transfers[name].lifecycle.awaitChallenge()
            challengePending[name] = true
        case .letGo(let name), .park(let name):
            // As CurlEventLoop.holdEndedHop: paused now if the command was not taken yet.
            betweenHops[name] = false
            let transfer = transfers[name]
            if !transfer.lifecycle.isPaused { _ = scheduler.pause(transfer, now: now) }
            scheduler.holdIfPaused(transfer)
            parked[name] = event == .park(name)
        case .answer(let name):
            challengePending[name] = false
            if transfers[name].lifecycle.challengeAnswered() {
                startHop(name)
            } else if phase[name] != .ended {
                problem("the answer to transfer \(name)'s challenge was dropped")
            }
        case .cancel(let name):
            complete(name)
        case .timers:
            for (transfer, _) in scheduler.expiredWaiting(now: now) { complete(transfer.name) }
        case .loopPass:
            while let (transfer, slot, admission) = scheduler.next(now: now) {
                handedOut.append(transfer.name)
                switch admission {
                case .send:
                    if slot !== scheduler.admission.queue(of: Self.lane) {
                        problem("transfer \(transfer.name) was handed a forgotten lane")
                    }
                case .fail:
                    // Not sent: the slot is free again (and its lane forgotten when idle).
                    complete(transfer.name)
                }
            }
        }
    }

    /// As CurlEventLoop.startHop: held, queued, sent, or ended when its budget is gone.
    private func startHop(_ name: Int) {
        let transfer = transfers[name]
        let queue = scheduler.admission.queue(of: Self.lane)
        let slotFree = queue.map { $0.running < $0.limit && $0.waiting == 0 } ?? true
        let paused = transfer.lifecycle.isPaused
        switch scheduler.startHop(transfer, lane: Self.lane, limit: limit, now: now) {
        case .held:
            if !paused { problem("transfer \(name) was held, not paused") }
        case .queued:
            if paused || slotFree { problem("transfer \(name) was queued with a free slot and no one waiting") }
        case .admitted(let admission, _):
            if paused || !slotFree { problem("transfer \(name) was sent past the waiting ones, or over the limit") }
            if case .fail = admission { complete(name) }
        }
    }

    /// As CurlEventLoop.complete: ends the transfer; the delegate is told once.
    private func complete(_ name: Int) {
        betweenHops[name] = false
        let transfer = transfers[name]
        let inLibcurl = transfer.lifecycle.isInLibcurl
        let finish = scheduler.finish(transfer)
        guard phase[name] != .ended else {
            if finish != nil { problem("transfer \(name) ended twice") }
            return
        }
        if finish != (inLibcurl ? .removeHop : .outsideLibcurl) {
            problem("ending transfer \(name) asked \(String(describing: finish)) of libcurl")
        }
        phase[name] = .ended
        parked[name] = false
    }

    private func problem(_ message: String) {
        problems.append(message)
    }

    // MARK: The rules

    /// The rules that hold after every event; `afterLoopPass`: no slot is left free while
    /// a transfer waits.
    private func check(afterLoopPass: Bool, waiting: [Int]) {
        let admission = scheduler.admission
        let queue = admission.queue(of: Self.lane)
        if Set(waiting).count != waiting.count { problem("a transfer waits twice: \(waiting)") }
        if admission.waitingCount != waiting.count { problem("\(admission.waitingCount) counted waiting, \(waiting.count) waiting") }
        var inLibcurl = 0
        var timed = 0
        for transfer in transfers {
            let name = transfer.name
            let lifecycle = transfer.lifecycle
            if (phase[name] == .ended) != lifecycle.isFinished { problem("transfer \(name) is \(lifecycle.state) as \(phase[name])") }
            if lifecycle.isWaitingForSlot != waiting.contains(name) {
                problem("transfer \(name) is \(lifecycle.state), and in the queue: \(waiting)")
            }
            if lifecycle.isPaused, lifecycle.isWaitingForSlot { problem("transfer \(name) waits in the queue while paused") }
            if let slot = lifecycle.slot, slot !== queue { problem("transfer \(name) holds a place in a forgotten lane") }
            if lifecycle.isInLibcurl {
                inLibcurl += 1
                if lifecycle.timeouts.hasLoopTimer { timed += 1 }
            }
            if betweenHops[name], Self.stage(of: lifecycle) != 0 { problem("transfer \(name) is \(lifecycle.state) between two hops") }
            if parked[name], Self.stage(of: lifecycle) != 5 { problem("parked transfer \(name) is \(lifecycle.state)") }
        }
        if let queue {
            if queue.running != inLibcurl { problem("\(queue.running) slots taken by \(inLibcurl) hops in libcurl") }
            if queue.running > limit { problem("\(queue.running) hops in libcurl, over the limit of \(limit)") }
            if queue.hasRoom, queue.waiting > 0 {
                if !admission.isReady(queue) { problem("a slot is free and a transfer waits, but the lane is not to be looked at") }
                if afterLoopPass { problem("a slot is left free while \(waiting) wait") }
            }
            if inLibcurl == 0, waiting.isEmpty { problem("an idle lane is remembered") }
        } else if inLibcurl > 0 || !waiting.isEmpty {
            problem("a lane in use was forgotten")
        }
        if admission.laneCount != (queue == nil ? 0 : 1) { problem("\(admission.laneCount) lanes remembered") }
        if scheduler.timedHops != timed { problem("\(scheduler.timedHops) timed hops counted, \(timed) in libcurl") }
    }

    /// Every transfer under way is let go on: challenges answered, the next hops started,
    /// paused transfers resumed. Then, round by round, the loop hands out the free slots
    /// and every hop in libcurl ends. Each transfer must get a slot (or end), in the order
    /// the transfers waited.
    func checkEveryoneRuns() {
        for transfer in transfers where phase[transfer.name] == .active {
            let name = transfer.name
            if challengePending[name] { step(.answer(name)) }
            if betweenHops[name] { step(.nextHop(name)) }
            if transfer.lifecycle.isPaused { step(.resume(name)) }
        }
        let queued = waiting
        handedOut = []
        for _ in 0...transfers.count {
            step(.loopPass)
            if scheduler.waitingCount == 0 { break }
            for transfer in transfers where transfer.lifecycle.isInLibcurl {
                step(.hopEnded(transfer.name))
                step(.complete(transfer.name))
            }
        }
        if handedOut != queued { problem("slots went to \(handedOut), the transfers waited as \(queued)") }
        for transfer in transfers where phase[transfer.name] == .active && !transfer.lifecycle.isRunning {
            problem("transfer \(transfer.name) never got a slot: \(transfer.lifecycle.state)")
        }
        // Ending a transfer again (cancelled after it completed) changes nothing.
        for transfer in transfers where phase[transfer.name] == .ended { step(.cancel(transfer.name)) }
    }

    // MARK: The walk

    /// What tells states apart for the scheduler, after a ``step(_:)``: each transfer's
    /// stage and flags, the queue in order, the lane's count and whether it is to be
    /// looked at for a free slot.
    var key: [Int] {
        let admission = scheduler.admission
        let queue = admission.queue(of: Self.lane)
        var key: [Int] = []
        for transfer in transfers {
            let name = transfer.name
            let lifecycle = transfer.lifecycle
            let flags = [lifecycle.isPaused, betweenHops[name], parked[name], challengePending[name], lifecycle.budgetStart != nil]
            key += [phase[name].rawValue, Self.stage(of: lifecycle)] + flags.map { $0 ? 1 : 0 }
        }
        key += [queue?.running ?? -1, queue.map { admission.isReady($0) ? 1 : 0 } ?? -1]
        key += checkedWaiting
        return key
    }

    /// The lifecycle's stage as a number: idle 0, waiting 1, running 2, awaiting a
    /// challenge 3, paused 4, held 5, finished 6.
    private static func stage(of lifecycle: TransferState.StateMachine<AdmissionControl<Transfer>.LaneQueue>) -> Int {
        switch lifecycle.state {
        case .idle: 0
        case .waitingForSlot: 1
        case .running: 2
        case .awaitingChallenge: 3
        case .paused: 4
        case .held: 5
        case .finished: 6
        }
    }

    /// The model after `events`, from the start.
    static func replay(_ events: [Event], transfers: Int, limit: Int) -> HandOver {
        let model = HandOver(transfers: transfers, limit: limit)
        for event in events { model.apply(event) }
        return model
    }

    /// Every state reachable from the start, breadth first: after every event of every
    /// state the rules are checked, and from every new state every transfer must get its
    /// slot as the others end. Stops at the first problem.
    static func explore(transfers: Int, limit: Int) -> Exploration {
        var exploration = Exploration()
        var seen: Set<[Int]> = [HandOver(transfers: transfers, limit: limit).key]
        var frontier: [[Event]] = [[]]
        while !frontier.isEmpty {
            var next: [[Event]] = []
            for sequence in frontier {
                var parent: HandOver? = replay(sequence, transfers: transfers, limit: limit)
                for event in parent?.possibleEvents() ?? [] {
                    exploration.transitions += 1
                    let path = sequence + [event]
                    // The parent itself serves once; every other event replays it.
                    let model = parent ?? replay(sequence, transfers: transfers, limit: limit)
                    parent = nil
                    model.step(event)
                    guard seen.insert(model.key).inserted || !model.problems.isEmpty else { continue }
                    if model.problems.isEmpty { model.checkEveryoneRuns() }
                    if !model.problems.isEmpty {
                        let events = path.map(\.description).joined(separator: ", ")
                        exploration.problems = model.problems.map { "after \(events): \($0)" }
                        return exploration
                    }
                    next.append(path)
                }
            }
            exploration.states = seen.count
            if !next.isEmpty { exploration.depth += 1 }
            frontier = next
        }
        exploration.complete = true
        return exploration
    }
}
