import Synchronization
import WebImageConcurrency
import WebImageCore

/// One observer's statuses, handed to its handler in order, one at a time, never the same
/// status twice in a row, and nothing after cancellation. Whoever posts while no one is
/// delivering delivers (outside the lock) until the queue is empty; others only enqueue.
final class StatusMailbox: Sendable {
    private struct State {
        var last: NetworkReachabilityStatus?
        var pending: [NetworkReachabilityStatus] = []
        var delivering = false
        var cancelled = false
    }

    private let delivery: CallbackDelivery
    private let handler: @Sendable (NetworkReachabilityStatus) -> Void
    private let state = Locked(State())

    init(delivery: CallbackDelivery, handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void) {
        self.delivery = delivery
        self.handler = handler
    }

    /// Queues `status` unless it equals the last one queued, and delivers.
    func post(_ status: NetworkReachabilityStatus) {
        if enqueue(status) { drain() }
    }

    /// Queues `status` unless it equals the last one queued. Returns whether the caller
    /// must ``drain()`` (no one else is delivering). Callers that hold a lock of their own
    /// enqueue under it, so statuses are queued in that lock's order, and drain after.
    func enqueue(_ status: NetworkReachabilityStatus) -> Bool {
        state.withLock { state -> Bool in
            guard !state.cancelled, state.last != status else { return false }
            state.last = status
            state.pending.append(status)
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
    }

    /// Delivers what is queued, one at a time, until the queue is empty.
    func drain() {
        while let next = state.withLock({ state -> NetworkReachabilityStatus? in
            guard !state.cancelled, !state.pending.isEmpty else {
                state.delivering = false
                return nil
            }
            return state.pending.removeFirst()
        }) {
            let handler = self.handler
            delivery.run { handler(next) }
        }
    }

    /// Drops what is queued and stops every later delivery.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.pending.removeAll()
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }
}
