import WebImageConcurrency
import WebImageCore

extension DownloadOperation {
    /// The life of one download as a state machine that does no I/O: each event returns the
    /// ``Action`` its ``DownloadOperation`` performs, after the lock around it is released.
    ///
    /// ```
    /// idle                start                         -> queued
    /// queued              slot granted                  -> modifying (transferring without a modifier)
    /// modifying           request modified / rejected   -> transferring / finished
    /// transferring        resume refused                -> modifying / transferring (same slot)
    /// transferring        completed, transient failure  -> backingOff
    /// transferring        completed, anything else      -> finished
    /// backingOff          wait over                     -> queued (the next attempt)
    /// queued              pause                         -> held (out of the queue)
    /// held                resume                        -> queued (queued again)
    /// transferring        stop                          -> cancellingTransfer
    /// cancellingTransfer  completed, or resume refused   -> finished
    /// any other           stop                          -> finished
    /// holding no slot     no more starts                -> finished (a stop)
    /// ```
    ///
    /// A stop ends the download at once from every state but a transfer, whose completion
    /// (prompt after a cancel) ends it instead, so the slot is given back only when the
    /// transfer is really over.
    ///
    /// Pausing is a wish that outlives attempts (``isPaused``), decided by the download's
    /// subscribers (``SubscriberPauses``: paused while every subscriber still present has
    /// paused). A running transfer is paused and keeps its slot; a download that waits for a
    /// slot leaves the queue instead (``State/held``), so a paused download never holds up
    /// the downloads behind it, and queues again when resumed; a transfer that starts while
    /// the download is paused (after the request modifier, a retry after its wait) is paused
    /// at once.
    ///
    /// Handles arrive after the state that needs them (the queue may grant the slot before
    /// `add` returns, a transfer may complete before `start` returns), so each state carries
    /// its handle as optional, and every event names the attempt it belongs to: an event of
    /// an earlier attempt, or one after the end, changes nothing and at most releases what
    /// it brought.
    struct StateMachine {
        /// An attempt that holds a queue slot.
        struct Attempt {
            /// 1 for the first attempt.
            let number: Int
            /// The queue entry whose slot the attempt holds.
            let entry: QueuedOperation
        }

        enum State {
            /// Made, not started.
            case idle
            /// Waiting for a slot for attempt `number`; the entry is known once `add` returned.
            case queued(number: Int, entry: QueuedOperation?)
            /// Holding a slot while the request modifier runs (its task once it is stored).
            case modifying(Attempt, modifier: Task<Void, Never>?)
            /// The transfer runs (its handle once `start` returned).
            case transferring(Attempt, TransferTask?)
            /// Stopped while transferring: the transfer is cancelled, its completion ends it.
            case cancellingTransfer(Attempt, TransferTask?)
            /// Attempt `number` failed and its slot is free; waiting (on `wait`) to queue the next.
            case backingOff(number: Int, wait: Task<Void, Never>?)
            /// Paused before attempt `number` got a slot: not in the queue until resumed.
            case held(number: Int)
            /// Ended once; every later event is stale.
            case finished
        }

        /// What to give back when the download ends.
        enum Release: Equatable {
            case nothing
            /// An entry that never ran: take it out of the queue.
            case withdraw(QueuedOperation)
            /// A slot held by an attempt: free it.
            case free(QueuedOperation)
            /// Stop the request modifier, then free the slot it held.
            case cancelModifier(Task<Void, Never>?, freeing: QueuedOperation)
            /// Stop waiting for the next attempt.
            case cancelWait(Task<Void, Never>)
        }

        enum Action {
            case none
            /// Add an entry for attempt `attempt` to the queue.
            case enqueue(priority: DownloadPriority, attempt: Int)
            /// A joiner raised the priority of the waiting entry.
            case raisePriority(QueuedOperation, to: DownloadPriority)
            /// An entry that arrived after the end: take it out of the queue.
            case withdraw(QueuedOperation)
            /// A slot granted after the end: give it back.
            case free(QueuedOperation)
            /// Run the request modifier on `request`.
            case modifyRequest(TransportRequest, attempt: Int)
            case startTransfer(TransportRequest, attempt: Int)
            case cancelTransfer(TransferTask)
            /// Pause the running transfer (under the lock: see ``DownloadOperation``).
            case pauseTransfer(TransferTask)
            /// Resume the paused transfer (under the lock).
            case resumeTransfer(TransferTask)
            /// A modifier or a wait that started after the end.
            case cancelTask(Task<Void, Never>)
            /// Free the slot, tell the monitor, and wait `delay` before the next attempt.
            case retry(after: Duration, error: TransportError, attempt: Int, freeing: QueuedOperation)
            /// Release, then hand the result to the subscribers.
            case end(Result<DownloadResult, DownloadError>, release: Release)
            /// Release, then hand `DownloadError.cancelled` to the subscribers still present.
            case endStopped(release: Release)
        }

        private(set) var state = State.idle
        /// The priority every entry is queued with; it only rises.
        private(set) var priority: DownloadPriority
        /// Whether each attempt runs the request modifier before its transfer.
        let modifiesRequests: Bool
        /// Whether the download is paused now: its subscribers' answer (``SubscriberPauses``,
        /// kept by the downloader's ``CoalescedRuns``).
        private(set) var isPaused = false

        init(priority: DownloadPriority, modifiesRequests: Bool) {
            self.priority = priority
            self.modifiesRequests = modifiesRequests
        }

        /// Where the download is, for a snapshot, and its attempt (1 before the first).
        var phase: (phase: DownloadSnapshot.Phase, attempt: Int) {
            switch state {
            case .idle: (.waitingForSlot, 1)
            case .queued(let number, _): (.waitingForSlot, number)
            case .modifying(let attempt, _): (.modifyingRequest, attempt.number)
            case .transferring(let attempt, _): (.transferring, attempt.number)
            case .cancellingTransfer(let attempt, _): (.ending, attempt.number)
            case .backingOff(let number, _): (.waitingToRetry, number + 1)
            case .held(let number): (.held, number)
            case .finished: (.ending, 1)
            }
        }

        // MARK: Queue

        mutating func start() -> Action {
            guard case .idle = state else { return .none }  // stopped before it started
            if isPaused {
                state = .held(number: 1)
                return .none
            }
            state = .queued(number: 1, entry: nil)
            return .enqueue(priority: priority, attempt: 1)
        }

        /// `add` returned `entry`, queued at `queuedPriority`.
        mutating func enqueued(_ entry: QueuedOperation, attempt: Int, at queuedPriority: DownloadPriority) -> Action {
            switch state {
            case .queued(attempt, nil):
                state = .queued(number: attempt, entry: entry)
                return priority > queuedPriority ? .raisePriority(entry, to: priority) : .none
            case .finished:
                return .withdraw(entry)
            case .held(attempt):
                return .withdraw(entry)  // paused before `add` returned
            default:
                return .none  // the slot was granted before `add` returned
            }
        }

        mutating func raisePriority(to newPriority: DownloadPriority) -> Action {
            guard newPriority > priority else { return .none }
            priority = newPriority
            guard case .queued(_, let entry?) = state else { return .none }
            return .raisePriority(entry, to: newPriority)
        }

        /// The queue gave attempt `attempt` a slot; `request` is what it sends unless modified.
        mutating func slotGranted(_ entry: QueuedOperation, attempt: Int, request: TransportRequest) -> Action {
            guard case .queued(attempt, _) = state else { return .free(entry) }
            let holding = Attempt(number: attempt, entry: entry)
            if modifiesRequests {
                state = .modifying(holding, modifier: nil)
                return .modifyRequest(request, attempt: attempt)
            }
            state = .transferring(holding, nil)
            return .startTransfer(request, attempt: attempt)
        }

        // MARK: Attempt

        mutating func modifierStarted(_ task: Task<Void, Never>, attempt: Int) -> Action {
            switch state {
            case .modifying(let holding, nil) where holding.number == attempt:
                state = .modifying(holding, modifier: task)
                return .none
            case .finished:
                return .cancelTask(task)
            default:
                return .none  // it already returned
            }
        }

        /// The request modifier returned a request, or rejected it.
        mutating func modifierFinished(attempt: Int, _ outcome: Result<TransportRequest, DownloadError>) -> Action {
            guard case .modifying(let holding, _) = state, holding.number == attempt else { return .none }
            switch outcome {
            case .success(let request):
                state = .transferring(holding, nil)
                return .startTransfer(request, attempt: attempt)
            case .failure(let error):
                state = .finished
                return .end(.failure(error), release: .free(holding.entry))
            }
        }

        mutating func transferStarted(_ transfer: TransferTask, attempt: Int) -> Action {
            switch state {
            case .transferring(let holding, nil) where holding.number == attempt:
                state = .transferring(holding, transfer)
                return isPaused ? .pauseTransfer(transfer) : .none
            case .cancellingTransfer(let holding, nil) where holding.number == attempt:
                state = .cancellingTransfer(holding, transfer)
                return .cancelTransfer(transfer)
            default:
                return .none  // it already completed
            }
        }

        /// The transfer of `attempt` completed. `retryDelay` is the policy's wait before
        /// another attempt after a transport failure, `nil` for none.
        mutating func transferCompleted(
            attempt: Int, _ outcome: Result<DownloadResult, DownloadError>, retryDelay: Duration?
        ) -> Action {
            switch state {
            case .transferring(let holding, _) where holding.number == attempt:
                if case .failure(.transport(let error)) = outcome, let retryDelay {
                    state = .backingOff(number: attempt, wait: nil)
                    return .retry(after: retryDelay, error: error, attempt: attempt, freeing: holding.entry)
                }
                state = .finished
                return .end(outcome, release: .free(holding.entry))
            case .cancellingTransfer(let holding, _) where holding.number == attempt:
                state = .finished
                return .endStopped(release: .free(holding.entry))
            default:
                return .none
            }
        }

        /// The transfer of `attempt` is over without a result: it asked to resume, and the
        /// server's answer could not be appended (see `AttemptResume`). The attempt keeps its
        /// slot and starts again with `request`, which asks for the whole body: through the
        /// request modifier when there is one, as a new attempt would.
        mutating func transferRestarted(attempt: Int, request: TransportRequest) -> Action {
            switch state {
            case .transferring(let holding, _) where holding.number == attempt:
                if modifiesRequests {
                    state = .modifying(holding, modifier: nil)
                    return .modifyRequest(request, attempt: attempt)
                }
                state = .transferring(holding, nil)
                return .startTransfer(request, attempt: attempt)
            case .cancellingTransfer(let holding, _) where holding.number == attempt:
                state = .finished
                return .endStopped(release: .free(holding.entry))
            default:
                return .none
            }
        }

        // MARK: Backoff

        mutating func waitStarted(_ wait: Task<Void, Never>, attempt: Int) -> Action {
            switch state {
            case .backingOff(attempt, nil):
                state = .backingOff(number: attempt, wait: wait)
                return .none
            case .finished:
                return .cancelTask(wait)
            default:
                return .none  // the wait is already over
            }
        }

        /// The wait after attempt `attempt` is over: queue the next one.
        mutating func waitEnded(attempt: Int) -> Action {
            guard case .backingOff(attempt, _) = state else { return .none }
            if isPaused {
                state = .held(number: attempt + 1)
                return .none
            }
            state = .queued(number: attempt + 1, entry: nil)
            return .enqueue(priority: priority, attempt: attempt + 1)
        }

        // MARK: Stop

        /// Nobody wants the download any more.
        mutating func stop() -> Action {
            switch state {
            case .idle:
                state = .finished
                return .endStopped(release: .nothing)
            case .queued(_, let entry):
                // An entry not known yet is withdrawn when it arrives (see `enqueued`).
                state = .finished
                return .endStopped(release: entry.map(Release.withdraw) ?? .nothing)
            case .modifying(let holding, let modifier):
                state = .finished
                return .endStopped(release: .cancelModifier(modifier, freeing: holding.entry))
            case .transferring(let holding, let transfer):
                state = .cancellingTransfer(holding, transfer)
                return transfer.map(Action.cancelTransfer) ?? .none
            case .backingOff(_, let wait):
                state = .finished
                return .endStopped(release: wait.map(Release.cancelWait) ?? .nothing)
            case .held:
                state = .finished
                return .endStopped(release: .nothing)
            case .cancellingTransfer, .finished:
                return .none
            }
        }

        /// Nothing will start the download's next attempt (its downloader is gone and its
        /// queue starts nothing more): a download that holds no slot (waiting for one, backing
        /// off, paused out of the queue) stops as ``stop()`` stops it; one holding a slot goes
        /// on, and meets this again if it ever waits for a slot.
        mutating func stopUnlessHoldingSlot() -> Action {
            switch state {
            case .idle, .queued, .backingOff, .held: stop()
            case .modifying, .transferring, .cancellingTransfer, .finished: .none
            }
        }

        // MARK: Pause

        /// The subscribers paused the download, or resumed it (one that has not paused joined,
        /// or one resumed).
        mutating func setPaused(_ paused: Bool) -> PauseChange {
            guard paused != isPaused else { return .unchanged }
            isPaused = paused
            guard !isFinished else { return .unchanged }
            return PauseChange(paused: isPaused, action: isPaused ? pauseAction() : resumeAction())
        }

        /// Whether the download paused or resumed, and what to do about it.
        struct PauseChange {
            /// `true`: it paused; `false`: it resumed; `nil`: nothing changed.
            var paused: Bool?
            var action: Action

            static var unchanged: PauseChange { PauseChange(paused: nil, action: .none) }
        }

        private var isFinished: Bool {
            if case .finished = state { true } else { false }
        }

        private mutating func pauseAction() -> Action {
            switch state {
            case .queued(let number, let entry):
                // An entry not known yet is withdrawn when it arrives (see `enqueued`).
                state = .held(number: number)
                return entry.map(Action.withdraw) ?? .none
            case .transferring(_, let transfer?):
                return .pauseTransfer(transfer)
            default:
                // Not started, modifying, backing off: the next step holds or pauses.
                return .none
            }
        }

        private mutating func resumeAction() -> Action {
            switch state {
            case .held(let number):
                state = .queued(number: number, entry: nil)
                return .enqueue(priority: priority, attempt: number)
            case .transferring(_, let transfer?):
                return .resumeTransfer(transfer)
            default:
                return .none
            }
        }
    }
}
