import Synchronization
import WebImageCore

/// One piece of work in a ``DownloadQueue``, with an explicit state machine.
///
/// ```
/// pending ──(the queue gives it a slot)──> running ──(the work calls finish())──> finished
///    │                                        │
///    └──────────(anyone calls cancel())───────┴──> cancelled
/// ```
///
/// Each transition has one owner: only the queue starts an operation; only the work
/// itself finishes it; anyone may cancel it. A cancelled operation that was running keeps
/// its slot until its work calls ``finish()``, so the queue's running count is the number
/// of transfers really in flight. Every later transition is ignored: finishing twice,
/// cancelling a finished operation.
public final class QueuedOperation: Sendable, Hashable, CustomStringConvertible {
    public enum State: Sendable, Hashable {
        case pending, running, finished, cancelled
    }

    /// Unique within the process.
    public let id: UInt64
    let queue: DownloadQueue
    let work: @Sendable (QueuedOperation) -> Void
    let onCancel: @Sendable () -> Void
    /// Set once, when the queue forgets the operation: 1 finished, 2 cancelled.
    let ending = Atomic<UInt8>(0)

    init(id: UInt64, queue: DownloadQueue, work: @escaping @Sendable (QueuedOperation) -> Void, onCancel: @escaping @Sendable () -> Void) {
        self.id = id
        self.queue = queue
        self.work = work
        self.onCancel = onCancel
    }

    /// Where the operation is in its life.
    public var state: State { queue.state(of: self) }

    /// The priority it waits with. Changes after it started have no effect.
    public var priority: DownloadPriority { queue.priority(of: self) }

    /// Raises the priority of a waiting operation (never lowers it).
    public func raisePriority(to priority: DownloadPriority) {
        queue.raisePriority(of: self, to: priority)
    }

    /// Cancels: a pending operation never runs; a running one has its cancel handler
    /// called (on this thread) and keeps its slot until its work finishes.
    public func cancel() {
        if queue.cancel(self) { onCancel() }
    }

    /// Called by the work when it is done; frees the slot for the next operation.
    public func finish() {
        queue.finish(self)
    }

    public static func == (lhs: QueuedOperation, rhs: QueuedOperation) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { "QueuedOperation(\(id), \(state))" }
}
