import Synchronization
import WebImageConcurrency
import WebImageCore

/// A bound on the bytes in use at once, such as the pixels of images being decoded: a
/// caller reserves the bytes before it allocates them and gives them back when done, and
/// waits while the budget is spent.
///
/// A server that decodes whatever its clients ask for holds, at worst, every decoded image
/// at once; with a budget it holds at most ``capacity`` bytes of them and the rest wait
/// their turn instead of taking the process past its memory limit.
///
/// ```swift
/// let budget = MemoryBudget(capacity: ProcessResources.current.memoryLimit / 4)
///
/// // Before decoding an image of `width` by `height` RGBA pixels:
/// let reservation = try await budget.reserve(width * height * 4, priority: request.priority)
/// defer { reservation.release() }
/// let image = try decoder.decode(data)  // at most `capacity` bytes of pixels exist at once
/// ```
///
/// Order: waiters are admitted highest `DownloadPriority` first and, within a priority,
/// in the order they asked. A waiter that does not fit yet holds back every waiter behind
/// it, even smaller ones that would fit, so a large request is never starved by a stream
/// of small ones of its priority or lower (a steady stream of higher-priority requests
/// can still keep it waiting: that is what priority means). A new request goes straight
/// through only when it fits and nobody of its priority or higher is waiting.
///
/// Oversized requests: a request larger than the whole capacity is admitted when nothing
/// else is in use, and then runs alone, rather than waiting forever.
///
/// All methods may be called from any thread or task. No actor, no polling: a waiter is
/// resumed by the release or cancellation that lets it in.
public final class MemoryBudget: Sendable {
    private typealias Machine = MemoryBudget.StateMachine<CheckedContinuation<Bool, Never>>

    private let state: Locked<Machine>
    /// Told when the budget gains its first waiter or loses its last one.
    private let waitersObservers = MonitorList<@Sendable () -> Void>()
    /// Told after every change of the bytes in use or the waiters.
    private let changeObservers = MonitorList<@Sendable () -> Void>()

    /// Called after a request was queued to wait, outside the lock: the tests' signal that
    /// a waiter is in place, so they need no sleeps.
    private let onQueued: (@Sendable () -> Void)?

    /// The most bytes reserved at once (except for a single larger request; see above).
    public let capacity: Int

    /// Creates a budget of `capacity` bytes, which must be above zero.
    public convenience init(capacity: Int) {
        self.init(capacity: capacity, onQueued: nil)
    }

    init(capacity: Int, onQueued: (@Sendable () -> Void)?) {
        state = Locked(Machine(capacity: capacity))
        self.capacity = capacity
        self.onQueued = onQueued
    }

    /// The bytes reserved and not yet released, for metrics.
    public var inUse: Int { state.withLock { $0.inUse } }

    /// How many requests are waiting for bytes, for metrics.
    public var waiting: Int { state.withLock { $0.waiting } }

    /// Calls `changed` (on the thread that made the change, after the budget's lock is let
    /// go) whenever the budget goes from no waiter to one or from some to none: the
    /// manager's signal to hold its downloads back while decodes wait. Read ``waiting``
    /// in `changed` for the state now: two changes close together may call it in either
    /// order, but the last call reads the last state. Remove the registration to stop.
    package func observeWaiters(_ changed: @escaping @Sendable () -> Void) -> EventMonitorRegistration {
        waitersObservers.add(changed, delivery: .immediate)
    }

    /// Calls `changed` (on the thread that made the change, after the budget's lock is let
    /// go) after each reservation, release, queued request and departure of a waiter:
    /// the signal to read ``inUse`` and ``waiting`` again, so that a test waits for the
    /// state it needs instead of polling. Remove the registration to stop.
    package func observeChanges(_ changed: @escaping @Sendable () -> Void) -> EventMonitorRegistration {
        changeObservers.add(changed, delivery: .immediate)
    }

    /// Runs `change` on the state and tells the observers when it made the first waiter
    /// or removed the last.
    private func changingWaiters<R: Sendable>(_ change: @Sendable (inout Machine) -> R) -> R {
        let (result, flipped) = state.withLock { machine -> (R, Bool) in
            let before = machine.waiting > 0
            let result = change(&machine)
            return (result, (machine.waiting > 0) != before)
        }
        if flipped { waitersObservers.emit { $0() } }
        changeObservers.emit { $0() }
        return result
    }

    /// Reserves `bytes`, waiting until they fit (see the type's discussion for the order).
    ///
    /// Give the bytes back with ``MemoryReservation/release()`` as soon as the memory is
    /// freed; a reservation that is dropped gives them back on deinit.
    ///
    /// - Parameters:
    ///   - bytes: How many bytes, zero or more.
    ///   - priority: Where the request waits: before every waiter of a lower priority,
    ///     behind every earlier one of its own or a higher priority. Pass the download's
    ///     priority to decode in the order the images were wanted. When the calling
    ///     task's priority is escalated while it waits (`Task.escalatePriority(to:)`, or a
    ///     higher-priority task awaiting it), the request moves up to the matching
    ///     priority (`DownloadPriority(taskPriority:)`).
    /// - Throws: `CancellationError` when the task is cancelled before or while it waits;
    ///   nothing is then reserved and its place in the queue goes to the next waiter. A
    ///   task cancelled just after being admitted gets its reservation (it owns it and
    ///   should release it).
    public func reserve(_ bytes: Int, priority: DownloadPriority = .normal) async throws(CancellationError) -> MemoryReservation {
        precondition(bytes >= 0, "a reservation cannot be negative")
        // The common case, bytes to spare and nobody waiting ahead, takes one lock and no
        // continuation, cancellation handler or escalation handler: a cold load of a
        // small image reserves in well under a microsecond.
        if !Task.isCancelled, state.withLock({ $0.reserveAtOnce(bytes, priority: priority) }) {
            changeObservers.emit { $0() }
            return MemoryReservation(bytes: bytes, budget: self)
        }
        let id = state.withLock { $0.makeWaiterID() }
        let wait = {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    // Checked under the lock: a cancellation handler that ran before this found
                    // nothing queued, but the task's flag was set before it ran, so it is seen.
                    let action = self.changingWaiters {
                        $0.reserve(bytes, priority: priority, id: id, waiter: continuation, isCancelled: Task.isCancelled)
                    }
                    switch action {
                    case .granted: continuation.resume(returning: true)
                    case .cancelled: continuation.resume(returning: false)
                    case .waiting: self.onQueued?()
                    }
                }
            } onCancel: {
                let action = self.changingWaiters { $0.cancel(id) }
                if case .fail(let cancelled, let grants) = action {
                    cancelled.resume(returning: false)
                    Self.resume(grants)
                }
            }
        }
        let granted: Bool
        if #available(macOS 26.0, *) {
            // A task whose priority is escalated while it waits (a higher-priority caller
            // now waits for its result) moves up among the waiters.
            granted = await withTaskPriorityEscalationHandler(operation: wait) { _, escalated in
                Self.resume(self.changingWaiters { $0.raise(id, to: DownloadPriority(taskPriority: escalated)) })
            }
        } else {
            granted = await wait()
        }
        // The bytes are counted from the moment they were granted; the reservation that
        // gives them back is made here, on the one path every grant takes.
        guard granted else { throw CancellationError() }
        return MemoryReservation(bytes: bytes, budget: self)
    }

    /// Gives back `bytes` of a reservation and admits the waiters that fit now.
    fileprivate func giveBack(_ bytes: Int) {
        let grants = changingWaiters { $0.release(bytes) }
        Self.resume(grants)
    }

    private static func resume(_ grants: [Machine.Grant]) {
        for grant in grants { grant.waiter.resume(returning: true) }
    }
}

/// Bytes reserved from a ``MemoryBudget``, given back exactly once: by ``release()``, or
/// when the reservation is deinitialised if it was not released before.
///
/// Releasing early matters: the bytes stay counted as in use, and waiters stay waiting,
/// until then. Relying on deinit works but returns the bytes whenever the last reference
/// goes, which may be later than it looks: a `Task` keeps the value it returned for as
/// long as its handle lives. The reservation keeps its budget alive.
public final class MemoryReservation: Sendable {
    /// How many bytes this reservation holds (until released).
    public let bytes: Int

    private let budget: MemoryBudget
    private let released = Atomic<Bool>(false)

    fileprivate init(bytes: Int, budget: MemoryBudget) {
        self.bytes = bytes
        self.budget = budget
    }

    /// Whether the bytes were given back.
    public var isReleased: Bool { released.load(ordering: .acquiring) }

    /// Gives the bytes back to the budget, letting waiters in. Calling it again does
    /// nothing. May be called from any thread.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        budget.giveBack(bytes)
    }

    deinit { release() }
}

/// A budget counts what animations composed on demand hold (``FrameBuffering/memoryBudget``):
/// held charges (a canvas being drawn on) count at once, over the capacity if need be;
/// kept charges (frames and snapshots kept to go faster) count only when nobody waits and
/// the bytes in use stay within half the capacity with them, so that they never hold back
/// a decode, and never take the half of the budget decodes can always count on.
extension MemoryBudget: MemoryCharging {
    public func chargeHeld(_ bytes: Int) {
        changingWaiters { $0.hold(bytes) }
    }

    public func chargeKept(_ bytes: Int) -> Bool {
        changingWaiters { $0.keepIfRoom(bytes) }
    }

    public func refund(_ bytes: Int) {
        giveBack(bytes)
    }
}
