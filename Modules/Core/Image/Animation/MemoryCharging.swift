/// A count of the bytes in use at once that an animation composed on demand charges what
/// it holds to: WebImageResources' `MemoryBudget` is one, and the manager passes its own
/// in ``FrameBuffering/memoryBudget``.
///
/// Two kinds of charge, because a frame source holds two kinds of memory:
/// - **Held**: what composing cannot do without (the canvas a walk over the frames draws
///   on, and what the format keeps beside it to dispose of a frame). The memory exists whether or not it fits, so it is counted whether or not it
///   fits, and the budget's other users wait for it to be given back.
/// - **Kept**: what a frame source keeps only to go faster (composed frames in its buffer,
///   composition snapshots). Kept only when the budget has room for them now; when it
///   has not, the frame or snapshot is not kept, and nothing waits or fails.
///
/// Every charge is given back with ``refund(_:)``, exactly once.
public protocol MemoryCharging: AnyObject, Sendable {
    /// The most bytes the budget means to have in use at once.
    var capacity: Int { get }
    /// Counts `bytes` as in use, whether or not they fit.
    func chargeHeld(_ bytes: Int)
    /// Counts `bytes` as in use when the budget has room for them now, by its own rule
    /// (`MemoryBudget`: nobody waiting, and the bytes in use within half its capacity);
    /// returns `false`, counting nothing, when it has not.
    func chargeKept(_ bytes: Int) -> Bool
    /// Gives back `bytes` counted by ``chargeHeld(_:)`` or ``chargeKept(_:)``.
    func refund(_ bytes: Int)
}
