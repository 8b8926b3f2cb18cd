import Synchronization
import WebImageConcurrency
import WebImageCore

/// One subscriber's events on their way to its handler.
///
/// Posting never waits for the handler: the event joins a small mailbox, and whoever finds
/// the mailbox idle drains it where the subscriber's ``CallbackDelivery`` says. So events
/// arrive in order, one at a time, even when several threads post at once or a handler
/// posts to itself (a handler that cancels its own subscription gets the completion after
/// it returns). A subscriber that is behind keeps only the newest progress and the newest
/// partial result. After the completion the mailbox is closed: later events are dropped
/// and the handler is released.
final class SubscriberMailbox<Partial: Sendable, Success: Sendable, Failure: Error>: Sendable {
    typealias Event = SubscriberEvent<Partial, Success, Failure>
    typealias Handler = @Sendable (Event) -> Void

    private struct State {
        var pending: [Event] = []
        var isDraining = false
        var isClosed = false
        var handler: Handler?
    }

    private let delivery: CallbackDelivery
    private let state: Locked<State>

    @_specialize(where Partial == DecodedImage, Success == DownloadResult, Failure == DownloadError)
    init(delivery: CallbackDelivery, handler: @escaping Handler) {
        self.delivery = delivery
        self.state = Locked(State(handler: handler))
    }

    /// Hands `event` over. Returns `false` when the mailbox was already closed (the
    /// subscriber had its completion).
    @_specialize(where Partial == DecodedImage, Success == DownloadResult, Failure == DownloadError)
    @discardableResult
    func post(_ event: Event) -> Bool {
        let decision = state.withLock { state -> Decision in
            guard !state.isClosed else { return .dropped }
            if event.isCompletion { state.isClosed = true }
            // The common case: nobody is delivering and nothing waits. Hand this one
            // straight to the handler, without queueing it.
            if !state.isDraining, state.pending.isEmpty, case .immediate = delivery, let handler = state.handler {
                state.isDraining = true
                if state.isClosed { state.handler = nil }
                return .deliverNow(handler)
            }
            switch event {
            case .progress:
                if case .progress = state.pending.last {
                    state.pending[state.pending.count - 1] = event
                    return .queued
                }
            case .partial:
                if case .partial = state.pending.last {
                    state.pending[state.pending.count - 1] = event
                    return .queued
                }
            case .completed:
                break
            }
            state.pending.append(event)
            guard !state.isDraining else { return .queued }
            state.isDraining = true
            return .startDrain
        }
        switch decision {
        case .dropped:
            return false
        case .queued:
            return true
        case .deliverNow(let handler):
            handler(event)
            // After the completion the mailbox is closed: nothing can have queued.
            if !event.isCompletion { drain() }
            return true
        case .startDrain:
            delivery.run { self.drain() }
            return true
        }
    }

    private enum Decision {
        case dropped, queued, startDrain
        case deliverNow(Handler)
    }

    /// Whether the completion has been posted.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    @_specialize(where Partial == DecodedImage, Success == DownloadResult, Failure == DownloadError)
    private func drain() {
        while true {
            let next = state.withLock { state -> ([Event], Handler?)? in
                guard !state.pending.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                var batch: [Event] = []
                swap(&batch, &state.pending)
                let handler = state.handler
                // The completion is in this batch: let go of the handler (and whatever it
                // captured) as soon as it has run.
                if state.isClosed { state.handler = nil }
                return (batch, handler)
            }
            guard let (batch, handler) = next else { return }
            guard let handler else { continue }
            for event in batch { handler(event) }
        }
    }
}
