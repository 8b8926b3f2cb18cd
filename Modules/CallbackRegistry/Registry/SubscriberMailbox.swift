import Synchronization
import WebImageConcurrency
import WebImageCore

/// One subscriber's events on their way to its handler.
///
/// Posting never waits for the handler: whoever finds the mailbox idle delivers, where
/// the subscriber's ``CallbackDelivery`` says; events that come while a delivery runs
/// wait in a small queue for the deliverer. So events arrive in order, one at a time,
/// even when several threads post at once or a handler posts to itself (a handler that
/// cancels its own subscription gets the completion after it returns). A subscriber
/// that is behind keeps only the newest progress and the newest partial result. After
/// the completion later events are dropped.
///
/// Who may deliver is one atomic `MailboxGate` rather than a lock: an event for an idle
/// `.immediate` subscriber, the common case of a fan-out, costs two atomic operations
/// (enter and leave the gate) and touches no lock; only events that must wait take the
/// queue's lock.
final class SubscriberMailbox<Partial: Sendable, Success: Sendable, Failure: Error>: Sendable {
    typealias Event = SubscriberEvent<Partial, Success, Failure>
    typealias Handler = @Sendable (Event) -> Void

    private let delivery: CallbackDelivery
    private let handler: Handler
    private let gate = Atomic<UInt8>(MailboxGate.idle)
    /// A completion was posted: later events are dropped.
    private let closed = Atomic<Bool>(false)
    /// The completion was delivered. Read and written only by the gate's holder.
    private let completionDelivered = Atomic<Bool>(false)
    /// Events waiting for the gate's holder: queued by posters that found the gate held
    /// (or a queue delivery), taken by the holder before it leaves.
    private let queue = Locked<[Event]>([])

    @_specialize(where Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    init(delivery: CallbackDelivery, handler: @escaping Handler) {
        self.delivery = delivery
        self.handler = handler
    }

    /// Hands `event` over. Returns `false` when the mailbox was already closed (the
    /// subscriber had its completion).
    @_specialize(where Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    @discardableResult
    func post(_ event: Event) -> Bool {
        if event.isCompletion {
            guard !closed.exchange(true, ordering: .relaxed) else { return false }
        } else if closed.load(ordering: .relaxed) {
            return false
        }
        // The common case: nobody is delivering and nothing waits. Deliver at once.
        if case .immediate = delivery, enter() {
            deliver(event)
            leave()
            return true
        }
        queue.withLock { queue in
            switch event {
            case .progress:
                if case .progress = queue.last {
                    queue[queue.count - 1] = event
                    return
                }
            case .partial:
                if case .partial = queue.last {
                    queue[queue.count - 1] = event
                    return
                }
            case .completed:
                break
            }
            queue.append(event)
        }
        // Make sure the holder sees it, or become the holder.
        var state = gate.load(ordering: .acquiring)
        while true {
            if state == MailboxGate.waiting { return true }
            if state == MailboxGate.held {
                let (exchanged, now) = gate.compareExchange(
                    expected: MailboxGate.held, desired: MailboxGate.waiting, ordering: .acquiringAndReleasing)
                if exchanged { return true }
                state = now
                continue
            }
            if enter() {
                delivery.run {
                    self.drainQueue()
                    self.leave()
                }
                return true
            }
            state = gate.load(ordering: .acquiring)
        }
    }

    /// Whether the completion has been posted.
    var isClosed: Bool { closed.load(ordering: .relaxed) }

    private func enter() -> Bool {
        gate.compareExchange(expected: MailboxGate.idle, desired: MailboxGate.held, ordering: .acquiring).exchanged
    }

    /// Leaves the gate, first delivering whatever was queued while it was held.
    @_specialize(where Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    private func leave() {
        while !gate.compareExchange(expected: MailboxGate.held, desired: MailboxGate.idle, ordering: .releasing).exchanged {
            // Someone queued events and marked the gate: take the mark back, deliver them.
            gate.store(MailboxGate.held, ordering: .sequentiallyConsistent)
            drainQueue()
        }
    }

    /// Delivers the queued events (the gate is held).
    @_specialize(where Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    private func drainQueue() {
        while true {
            let batch = queue.withLock { queue -> [Event] in
                var batch: [Event] = []
                swap(&batch, &queue)
                return batch
            }
            if batch.isEmpty { return }
            for event in batch { deliver(event) }
        }
    }

    /// Calls the handler (the gate is held), unless the completion has been delivered.
    private func deliver(_ event: Event) {
        guard !completionDelivered.load(ordering: .relaxed) else { return }
        if event.isCompletion { completionDelivered.store(true, ordering: .relaxed) }
        handler(event)
    }
}

/// The states of a mailbox's gate. Only the holder (whoever moved it from `idle`) calls
/// the handler, and it leaves only when nothing waits; a poster that queues an event
/// while the gate is held marks it `waiting`, so the holder drains before leaving.
enum MailboxGate {
    static let idle: UInt8 = 0
    static let held: UInt8 = 1
    static let waiting: UInt8 = 2
}
