import Synchronization
import WebImageCore

/// What a subscription's event sequence holds for a consumer that has fallen behind: the
/// newest progress, the newest partial result and the completion, each kept until it
/// is read, and handed out in the order they arrived.
///
/// A buffer of the newest *n* events (what `AsyncStream`'s policy offers) lets a burst
/// of progress push a partial image out, so a slow consumer of a progressive load could
/// see its progress but none of its partial images. Keeping one of each kind loses only
/// what a newer event of the same kind supersedes.
///
/// The subscription's handler holds the buffer weakly and the sequence holds it
/// strongly: when the consumer drops the sequence, the buffer goes, and its deinit
/// cancels the subscription (ending the iteration early cancels the work).
final class NewestEventBuffer<Partial: Sendable, Success: Sendable, Failure: Error>: Sendable {
    typealias Event = SubscriberEvent<Partial, Success, Failure>

    private struct State {
        var progress: (order: UInt64, event: Event)?
        var partial: (order: UInt64, event: Event)?
        var completion: Event?
        var nextOrder: UInt64 = 0
        /// Consumers waiting in `next()` (one, unless several iterate at once).
        var waiters: [CheckedContinuation<Event?, Never>] = []
        /// The completion was handed out, or the consumer cancelled: `next()` ends.
        var isFinished = false
        var subscription: (any Cancellable)?
        var isCancelled = false
        /// The completion arrived: nothing is left to cancel.
        var isCompleted = false

        var isEmpty: Bool { progress == nil && partial == nil && completion == nil }

        /// The oldest held event, taken out.
        mutating func take() -> Event? {
            switch (progress, partial) {
            case (let progress?, let partial?):
                if progress.order < partial.order {
                    self.progress = nil
                    return progress.event
                }
                self.partial = nil
                return partial.event
            case (let progress?, nil):
                self.progress = nil
                return progress.event
            case (nil, let partial?):
                self.partial = nil
                return partial.event
            case (nil, nil):
                guard let completion else { return nil }
                self.completion = nil
                isFinished = true
                return completion
            }
        }
    }

    private let state = Locked(State())

    deinit {
        let unfinished = state.withLock { $0.isCompleted ? nil : $0.subscription }
        unfinished?.cancel()
    }

    /// Keeps the subscription to cancel when the consumer goes or cancels. When the
    /// consumer already cancelled, cancels it at once.
    func attach(_ subscription: any Cancellable) {
        let cancelNow = state.withLock { state -> Bool in
            state.subscription = subscription
            return state.isCancelled
        }
        if cancelNow { subscription.cancel() }
    }

    /// From the subscription's handler, on whatever thread it calls from.
    func push(_ event: Event) {
        let handOver = state.withLock { state -> (CheckedContinuation<Event?, Never>, Event)? in
            guard !state.isFinished, state.completion == nil else { return nil }
            if event.isCompletion { state.isCompleted = true }
            if state.isEmpty, !state.waiters.isEmpty {
                if event.isCompletion { state.isFinished = true }
                return (state.waiters.removeFirst(), event)
            }
            let order = state.nextOrder
            state.nextOrder += 1
            switch event {
            case .progress: state.progress = (order, event)
            case .partial: state.partial = (order, event)
            case .completed: state.completion = event
            }
            return nil
        }
        if let (waiter, event) = handOver { waiter.resume(returning: event) }
    }

    /// The next event, waiting for one; `nil` after the completion or a cancellation.
    func next() async -> Event? {
        await withCheckedContinuation { (waiter: CheckedContinuation<Event?, Never>) in
            let ready = state.withLock { state -> Event?? in
                if let event = state.take() { return .some(event) }
                if state.isFinished { return .some(nil) }
                state.waiters.append(waiter)
                return .none
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// The consumer's task was cancelled: the sequence ends and the subscription is
    /// cancelled.
    func cancel() {
        let (waiters, subscription) = state.withLock { state in
            state.isFinished = true
            state.isCancelled = true
            state.progress = nil
            state.partial = nil
            state.completion = nil
            let waiters = state.waiters
            state.waiters.removeAll()
            return (waiters, state.isCompleted ? nil : state.subscription)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        subscription?.cancel()
    }
}
