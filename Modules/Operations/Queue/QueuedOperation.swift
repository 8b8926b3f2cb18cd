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
///
/// Ownership runs one way: the queue owns its waiting and running operations, and the
/// work of each until it starts; an operation refers to its queue weakly. A queue dropped
/// with operations still waiting (suspended, say) frees them and their work, which never
/// runs; they read as cancelled. A running operation outlives its queue as long as its
/// work holds it; its ``finish()`` and ``cancel()`` then only set its state.
public final class QueuedOperation: Sendable, Hashable, CustomStringConvertible {
    public enum State: Sendable, Hashable {
        case pending, running, finished, cancelled
    }

    /// Unique within the process.
    public let id: UInt64
    weak let queue: DownloadQueue?
    let onCancel: @Sendable () -> Void
    /// Set once, when the queue forgets the operation (or is gone): see ``Ending``.
    let ending = Atomic<UInt8>(Ending.none.rawValue)

    /// How an operation left its queue.
    enum Ending: UInt8 {
        case none, finished, cancelled
    }

    init(id: UInt64, queue: DownloadQueue?, onCancel: @escaping @Sendable () -> Void) {
        self.id = id
        self.queue = queue
        self.onCancel = onCancel
    }

    /// Where the operation is in its life.
    public var state: State {
        if let queue, let state = queue.state(of: self) { return state }
        switch Ending(rawValue: ending.load(ordering: .acquiring)) {
        case .finished: return .finished
        case .cancelled: return .cancelled
        case .none?, nil: return .running  // its queue is gone, its work has not finished
        }
    }

    /// The priority it waits with. Changes after it started have no effect.
    public var priority: DownloadPriority { queue?.priority(of: self) ?? .normal }

    /// Raises the priority of a waiting operation (never lowers it).
    public func raisePriority(to priority: DownloadPriority) {
        queue?.raisePriority(of: self, to: priority)
    }

    /// Cancels: a pending operation never runs; a running one has its cancel handler
    /// called (on this thread) and keeps its slot until its work finishes.
    public func cancel() {
        if let queue {
            if queue.cancel(self) { onCancel() }
        } else if end(.cancelled) {
            onCancel()  // running when its queue went away
        }
    }

    /// Called by the work when it is done; frees the slot for the next operation.
    public func finish() {
        if let queue { queue.finish(self) } else { _ = end(.finished) }
    }

    /// Records how the operation left its queue, once. Returns whether this call did.
    func end(_ how: Ending) -> Bool {
        ending.compareExchange(expected: Ending.none.rawValue, desired: how.rawValue, ordering: .acquiringAndReleasing).exchanged
    }

    public static func == (lhs: QueuedOperation, rhs: QueuedOperation) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { "QueuedOperation(\(id), \(state))" }
}
