import Foundation
import WebImageCore

extension TransferState {
    /// Where one transfer is in its life, and what the event loop must do as it moves on.
    ///
    /// Each case carries what only that stage has (the queue place of a waiting hop, the
    /// stall watch of a running one), so "waiting and in libcurl" or "finished and awaiting
    /// a challenge" cannot be written down. The transitions are pure: they take the event
    /// and the time, change the state, and return what the loop has to do (take the hop out
    /// of libcurl, give back its slot, fail it with an error); the loop does it. No clock,
    /// no libcurl, no I/O: `TransferLifecycleTests` drives every transition with plain
    /// values. `Slot` is the loop's handle on a connection slot (its admission queue).
    ///
    /// ```
    /// idle ──queue──▶ waitingForSlot ──admit──▶ running ──hopEnded──▶ idle
    ///   │                                                               │
    ///   └──────────admit──────────▶ running     idle ──awaitChallenge──▶ awaitingChallenge
    ///                                                                   └──answered──▶ idle
    /// running ──pause──▶ paused ──resume──▶ running        (paused ──hopEnded──▶ idle)
    /// waitingForSlot ──pause──▶ held ──resume──▶ idle (the hop starts again: queue or admit)
    /// idle ──holdIfPaused──▶ held   (a hop about to start while the transfer is paused)
    /// idle or waitingForSlot ──admit, budget gone──▶ idle (not sent; it holds nothing)
    /// any but finished ──finish──▶ finished
    /// ```
    ///
    /// Pausing is a wish that outlives hops (``isPaused``): a pause while a challenge is
    /// with its handler holds the retry hop when it comes. Paused time is spent from no
    /// budget: the stall timer starts afresh at the resume, the whole-transfer budget is
    /// extended by every paused interval (``pausedTime``), and a hop that waited for a slot
    /// and was paused leaves the queue (it does not hold up the hops behind it) and queues
    /// again, at the back, when resumed.
    ///
    /// Loop thread only, like the ``TransferState`` that holds it.
    struct StateMachine<Slot> {
        enum State {
            /// Not in libcurl, not queued: before the first hop, or between hops (a redirect
            /// or an authentication retry being prepared).
            case idle
            /// The hop waits in `slot`'s queue for a connection slot, since `since`.
            case waitingForSlot(slot: Slot, since: ContinuousClock.Instant)
            /// The hop is in libcurl's multi handle, holding `slot` (`nil`: a `file:` hop,
            /// which needs no connection), sending and receiving.
            case running(slot: Slot?, watch: StallWatch)
            /// A 401's challenge is with the challenge handler; nothing runs until it answers.
            case awaitingChallenge
            /// The hop is in libcurl holding `slot`, paused (`curl_easy_pause`): nothing is
            /// delivered and no timer runs until it resumes.
            case paused(slot: Slot?)
            /// Paused before the hop entered libcurl (while it waited for a slot, or as it was
            /// about to start): neither queued nor in libcurl; resuming starts the hop.
            case held
            /// The delegate has been told how the transfer ended; later events are ignored.
            case finished
        }

        /// What the stall timer last saw of a running hop.
        struct StallWatch: Equatable {
            /// The transfer's header-line and body-chunk count at the last check.
            var activitySeen: Int
            /// The connection's received-byte count at the last check (-1: not read yet).
            var wireBytesSeen: Int64 = -1
            /// When something last arrived (or the hop started).
            var lastActivity: ContinuousClock.Instant
        }

        /// What entering libcurl means for the hop.
        enum Admission: Equatable {
            /// Send it, with this much of the whole-transfer budget already spent (by earlier
            /// hops; never by waiting for the first slot).
            case send(spent: Duration)
            /// Do not send it: the budget is gone.
            case fail(TimerExpiry)
        }

        /// Why a timer ended the transfer.
        enum TimerExpiry: Equatable {
            /// The first hop waited its whole-transfer timeout for a slot: never sent.
            case waitedForConnection(Duration)
            /// The whole-transfer budget ran out while a later hop waited (or before it
            /// could be sent).
            case timedOut(Duration)
            /// Nothing arrived on a running hop for the stall timeout.
            case stalled(Duration)
            /// A running hop used up the whole-transfer budget (paused time not counted).
            case budgetSpent(Duration)
        }

        /// What pausing asks the loop to do.
        enum PauseAction {
            /// Nothing runs now: the next hop is held when it is about to start.
            case none
            /// Pause the hop in libcurl (`curl_easy_pause`, receive and send).
            case pauseHop
            /// Take the hop out of `slot`'s queue: it is held, not waiting.
            case withdraw(Slot)
        }

        /// What resuming asks the loop to do.
        enum ResumeAction: Equatable {
            /// Nothing ran: the transfer goes on as it was (a challenge with its handler).
            case none
            /// Unpause the hop in libcurl.
            case resumeHop
            /// Start the held hop (into its slot's queue, or libcurl).
            case startHop
        }

        /// What finishing asks the loop to clean up.
        enum Cleanup {
            /// Nothing holds a slot or a handle in libcurl.
            case nothing
            /// Take the hop out of its slot's queue.
            case withdraw(Slot)
            /// Take the hop out of libcurl and give back its slot (when it has one).
            case removeFromMulti(Slot?)
        }

        let timeouts: TransportRequest.Timeouts
        private(set) var state: State = .idle
        /// When the first hop entered libcurl: the whole-transfer budget runs from here.
        private(set) var budgetStart: ContinuousClock.Instant?
        /// When the transfer was paused; `nil` when it is not.
        private(set) var pausedSince: ContinuousClock.Instant?
        /// The time the transfer spent paused since ``budgetStart`` (finished pauses only):
        /// the budget is extended by it.
        private(set) var pausedTime = Duration.zero

        init(timeouts: TransportRequest.Timeouts) {
            self.timeouts = timeouts
        }

        var isFinished: Bool {
            if case .finished = state { true } else { false }
        }

        var isRunning: Bool {
            if case .running = state { true } else { false }
        }

        var isWaitingForSlot: Bool {
            if case .waitingForSlot = state { true } else { false }
        }

        /// The hop is in libcurl's multi handle: running or paused.
        var isInLibcurl: Bool {
            switch state {
            case .running, .paused: true
            default: false
            }
        }

        /// Whether the transfer is paused (its hop paused or held, or the next one to be).
        var isPaused: Bool { pausedSince != nil }

        /// The slot the hop holds or waits for.
        var slot: Slot? {
            switch state {
            case .waitingForSlot(let slot, _): slot
            case .running(let slot, _), .paused(let slot): slot
            default: nil
            }
        }

        // MARK: Transitions

        /// The hop found no free slot and joins `slot`'s queue.
        mutating func queue(in slot: Slot, now: ContinuousClock.Instant) {
            precondition(isIdle, "a hop queues only when idle, not \(state)")
            state = .waitingForSlot(slot: slot, since: now)
        }

        /// The hop enters libcurl (at once, or as a slot came free): it runs, or fails when
        /// the budget an earlier hop started is already spent. A hop not sent is idle: it
        /// holds no slot (the caller gives back the one it was handed) and waits in no queue.
        mutating func admit(slot: Slot?, activity: Int, now: ContinuousClock.Instant) -> Admission {
            precondition(isIdle || isWaitingForSlot, "a hop is admitted only when idle or waiting, not \(state)")
            if let total = timeouts.total, let spent = budgetSpent(at: now), spent >= total {
                state = .idle
                return .fail(.timedOut(total))
            }
            if budgetStart == nil {
                budgetStart = now
                // Pauses before the budget began were spent from nothing.
                pausedTime = .zero
            }
            state = .running(slot: slot, watch: StallWatch(activitySeen: activity, lastActivity: now))
            return .send(spent: budgetSpent(at: now) ?? .zero)
        }

        /// libcurl reported the hop done and it left the multi handle; returns the slot it
        /// gives back.
        mutating func hopEnded() -> Slot? {
            switch state {
            case .running(let slot, _), .paused(let slot):
                // A paused hop can end too: its connection failed, or it was cut off.
                state = .idle
                return slot
            default:
                return nil
            }
        }

        // MARK: Pausing

        /// The transfer is to pause; `nil` when that changes nothing (already paused, or
        /// finished).
        mutating func pause(now: ContinuousClock.Instant) -> PauseAction? {
            guard !isFinished, pausedSince == nil else { return nil }
            pausedSince = now
            switch state {
            case .running(let slot, _):
                state = .paused(slot: slot)
                return .pauseHop
            case .waitingForSlot(let slot, _):
                state = .held
                return .withdraw(slot)
            default:
                return PauseAction.none
            }
        }

        /// The transfer is to resume; `nil` when that changes nothing (not paused, or
        /// finished). `activity` starts the stall watch afresh.
        mutating func resume(activity: Int, now: ContinuousClock.Instant) -> ResumeAction? {
            guard !isFinished, let since = pausedSince else { return nil }
            pausedSince = nil
            if budgetStart != nil { pausedTime += now - since }
            switch state {
            case .paused(let slot):
                state = .running(slot: slot, watch: StallWatch(activitySeen: activity, lastActivity: now))
                return .resumeHop
            case .held:
                state = .idle
                return .startHop
            default:
                return ResumeAction.none
            }
        }

        /// A hop is about to start: `true` when the transfer is paused, and the hop is held
        /// until it resumes.
        mutating func holdIfPaused() -> Bool {
            guard pausedSince != nil, isIdle else { return false }
            state = .held
            return true
        }

        /// A 401 goes to the challenge handler.
        mutating func awaitChallenge() {
            precondition(isIdle, "a challenge is put only between hops, not \(state)")
            state = .awaitingChallenge
        }

        /// The handler answered; `false` when the transfer ended meanwhile (cancelled, shut
        /// down) and the answer is to be dropped.
        mutating func challengeAnswered() -> Bool {
            switch state {
            case .awaitingChallenge:
                state = .idle
                return true
            case .idle:
                // The request's own credential, answered without asking the handler.
                return true
            default:
                return false
            }
        }

        /// The transfer ends; `nil` when it had already ended (the delegate is told once).
        mutating func finish() -> Cleanup? {
            let cleanup: Cleanup
            switch state {
            case .finished: return nil
            case .idle, .awaitingChallenge, .held: cleanup = .nothing
            case .waitingForSlot(let slot, _): cleanup = .withdraw(slot)
            case .running(let slot, _), .paused(let slot): cleanup = .removeFromMulti(slot)
            }
            state = .finished
            return cleanup
        }

        /// The timer check, about every 100 ms: whether a timer ends the transfer now. A
        /// paused or held transfer has no timer running.
        /// `activity` is the transfer's header-and-body count; `connecting`, that the hop is
        /// still getting its connection (name lookup, connect, TLS handshake: the connect
        /// timeout's, so the stall watch has not started); `wireBytes` reads the connection's
        /// received bytes, asked only when that count has not moved (it costs a system call).
        mutating func checkTimers(
            now: ContinuousClock.Instant, activity: Int, connecting: Bool = false, wireBytes: () -> Int64?
        ) -> TimerExpiry? {
            switch state {
            case .waitingForSlot(_, let since):
                guard let total = timeouts.total else { return nil }
                if let spent = budgetSpent(at: now) {
                    return spent >= total ? .timedOut(total) : nil
                }
                return now - since >= total ? .waitedForConnection(total) : nil
            case .running(let slot, var watch):
                if let total = timeouts.total, let spent = budgetSpent(at: now), spent >= total {
                    return .budgetSpent(total)
                }
                guard let limit = timeouts.stall else { return nil }
                if connecting {
                    // Getting a connection is the connect timeout's: the stall watch starts
                    // once the request goes out.
                    watch.activitySeen = activity
                    watch.lastActivity = now
                } else if activity != watch.activitySeen {
                    watch.activitySeen = activity
                    watch.lastActivity = now
                } else if let wire = wireBytes(), wire != watch.wireBytesSeen {
                    // Bytes libcurl did not pass on (chunk framing and extensions) still
                    // show the server is sending.
                    watch.wireBytesSeen = wire
                    watch.lastActivity = now
                } else if now - watch.lastActivity > limit {
                    return .stalled(limit)
                }
                state = .running(slot: slot, watch: watch)
                return nil
            default:
                return nil
            }
        }

        private var isIdle: Bool {
            if case .idle = state { true } else { false }
        }

        /// The budget spent by `now`: the time since ``budgetStart`` less the paused time
        /// (the current pause included); `nil` before the first hop entered libcurl.
        func budgetSpent(at now: ContinuousClock.Instant) -> Duration? {
            guard let start = budgetStart else { return nil }
            let pausedNow = pausedSince.map { now - max($0, start) } ?? .zero
            return now - start - pausedTime - pausedNow
        }
    }
}

extension TransferState.StateMachine.PauseAction: Equatable where Slot: Equatable {}
