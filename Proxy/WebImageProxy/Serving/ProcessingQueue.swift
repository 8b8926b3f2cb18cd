import WebImageConcurrency
import WebImageResources

/// At most `width` renders at once, and at most `capacity` more waiting in order; a
/// request beyond those is refused at once (429 with `Retry-After`) instead of growing a
/// queue whose tail would time out anyway. A waiter that is cancelled leaves the queue.
///
/// The slots are the library's `MemoryBudget` counting renders instead of bytes: its
/// first-come order, cancellation and no-polling wake-ups are the ones the decoders'
/// memory bound already relies on. Only the refusal is this type's own.
final class ProcessingQueue: Sendable {
    let width: Int
    let capacity: Int
    /// Internal, not private: a test waits for a change of ``load`` on the budget's
    /// change signal (`observeChanges`) rather than polling it.
    let slots: MemoryBudget

    init(width: Int, capacity: Int) {
        precondition(width > 0 && capacity >= 0, "a processing queue needs a width")
        self.width = width
        self.capacity = capacity
        slots = MemoryBudget(capacity: width)
    }

    /// Renders running and waiting, for a gauge.
    var load: (running: Int, waiting: Int) { (slots.inUse, slots.waiting) }

    /// Runs `work` when a slot is free.
    ///
    /// - Throws: ``ProxyError`` `busy` when `capacity` requests already wait;
    ///   `CancellationError` when the task is cancelled while it waits.
    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        // Checked before joining the line: requests arriving at the same instant may each
        // see room and take a place, so the line can pass `capacity` by that many at most.
        if slots.inUse >= width, slots.waiting >= capacity {
            throw ProxyError(.busy, "the processing queue is full (\(width) running, \(capacity) waiting)")
        }
        let slot = try await slots.reserve(1)
        defer { slot.release() }
        return try await work()
    }
}
