import WebImageConcurrency
import WebImageCore

extension MemoryBudget {
    /// The admission decisions of a ``MemoryBudget``, as plain values: requests, releases and
    /// cancellations go in, the waiters to resume come out. No lock, no task, no I/O; the
    /// budget keeps one of these behind its lock and resumes waiters after letting go of it.
    ///
    /// The rule, kept after every step: the waiter served next (highest priority, then
    /// earliest) does not fit, or there is none. So waiters are admitted strictly in that
    /// order, and one that does not fit yet holds back every waiter behind it, including
    /// smaller ones that would fit: a large request is never starved by a stream of small
    /// ones of its priority or lower. A request fits when the bytes in use plus its own stay
    /// within the capacity, or when nothing is in use (so a request larger than the whole
    /// capacity runs alone rather than never).
    ///
    /// `Waiter` is whatever the caller resumes: a continuation in the budget, a name in tests.
    struct StateMachine<Waiter> {
        /// Names one call to ``reserve(_:priority:id:waiter:isCancelled:)``, so that its
        /// cancellation can find it.
        struct WaiterID: Hashable {
            fileprivate let value: UInt64
        }

        /// A waiter admitted: resume it, its bytes are already counted in use.
        struct Grant {
            let waiter: Waiter
            let bytes: Int
        }

        enum ReserveAction: Equatable {
            /// Admitted at once: the bytes are counted in use; resume the caller with them.
            case granted
            /// Queued: the waiter comes back from a later ``release(_:)`` or ``cancel(_:)``.
            case waiting
            /// The caller was already cancelled: nothing was counted or queued.
            case cancelled
        }

        enum CancelAction {
            /// Nothing to do: the waiter was already admitted or already cancelled.
            case none
            /// Fail `waiter` with a cancellation, then resume `grants`: the waiters that fit
            /// now that the cancelled one no longer holds them back.
            case fail(Waiter, thenGrant: [Grant])
        }

        private struct Entry {
            let id: WaiterID
            let bytes: Int
            let priority: DownloadPriority
            let waiter: Waiter
        }

        /// The most bytes in use at once, except for a single request larger than this.
        let capacity: Int

        /// The bytes admitted and not yet released.
        private(set) var inUse = 0

        private var queue = PriorityFIFO<DownloadPriority, Entry>()
        private var lastID: UInt64 = 0

        init(capacity: Int) {
            precondition(capacity > 0, "a memory budget needs a capacity above zero")
            self.capacity = capacity
        }

        /// How many requests wait to be admitted.
        var waiting: Int { queue.count }

        /// The waiters in the order they will be admitted, for tests.
        var queuedWaiters: [Waiter] { queue.elements.map(\.waiter) }

        /// A new name for a request; made before the request so that a cancellation that
        /// comes first has something to name.
        mutating func makeWaiterID() -> WaiterID {
            lastID += 1
            return WaiterID(value: lastID)
        }

        /// A request for `bytes` at `priority`. Admitted at once when it fits and no waiter of
        /// the same or a higher priority is queued (it would be served first); otherwise
        /// queued. A caller already cancelled is turned away, even when the bytes are free.
        mutating func reserve(
            _ bytes: Int,
            priority: DownloadPriority,
            id: WaiterID,
            waiter: Waiter,
            isCancelled: Bool
        ) -> ReserveAction {
            precondition(bytes >= 0, "a reservation cannot be negative")
            if isCancelled { return .cancelled }
            let aheadOfEveryWaiter = queue.first.map { $0.priority < priority } ?? true
            if aheadOfEveryWaiter, fits(bytes) {
                // The queue's first waiter did not fit before and fits even less now, so no
                // one else is admitted by this.
                inUse += bytes
                return .granted
            }
            queue.append(Entry(id: id, bytes: bytes, priority: priority, waiter: waiter), priority: priority)
            return .waiting
        }

        /// The same rule as ``reserve(_:priority:id:waiter:isCancelled:)`` for a caller that
        /// does not want to wait: true and the bytes counted in use when they would be
        /// admitted at once; false, and nothing changed, otherwise.
        mutating func reserveAtOnce(_ bytes: Int, priority: DownloadPriority) -> Bool {
            precondition(bytes >= 0, "a reservation cannot be negative")
            let aheadOfEveryWaiter = queue.first.map { $0.priority < priority } ?? true
            guard aheadOfEveryWaiter, fits(bytes) else { return false }
            inUse += bytes
            return true
        }

        /// `bytes` counted in use whether or not they fit: memory that exists already (see
        /// ``MemoryCharging``). Admits no one; waiters wait longer.
        mutating func hold(_ bytes: Int) {
            precondition(bytes >= 0, "a charge cannot be negative")
            inUse += bytes
        }

        /// `bytes` counted in use only when nobody waits and the bytes in use stay within
        /// half the capacity with them: what is kept only to go faster never takes the
        /// other half, which stays for decodes however long the keepers live (a memory
        /// cache may keep them until a new image pushes them out).
        mutating func keepIfRoom(_ bytes: Int) -> Bool {
            precondition(bytes >= 0, "a charge cannot be negative")
            guard queue.count == 0, bytes <= capacity / 2 - inUse else { return false }
            inUse += bytes
            return true
        }

        /// `bytes` given back; returns the waiters that fit now, in the order they were
        /// admitted.
        mutating func release(_ bytes: Int) -> [Grant] {
            precondition(bytes >= 0 && bytes <= inUse, "released more bytes than were reserved")
            inUse -= bytes
            return admitWaiters()
        }

        /// The request named `id` gave up. If it was still queued it leaves the queue, which
        /// may let the waiters it held back in.
        mutating func cancel(_ id: WaiterID) -> CancelAction {
            guard let entry = queue.remove(firstWhere: { $0.id == id }) else { return .none }
            return .fail(entry.waiter, thenGrant: admitWaiters())
        }

        /// The request named `id` wants its bytes sooner: while it waits, it moves to the end
        /// of the waiters of `priority` when that is higher than its own. Returns the waiters
        /// that fit now (it may be first now, and fit).
        mutating func raise(_ id: WaiterID, to priority: DownloadPriority) -> [Grant] {
            guard let index = queue.elements.firstIndex(where: { $0.id == id }), queue.elements[index].priority < priority,
                let entry = queue.remove(firstWhere: { $0.id == id })
            else { return [] }
            queue.append(Entry(id: id, bytes: entry.bytes, priority: priority, waiter: entry.waiter), priority: priority)
            return admitWaiters()
        }

        private func fits(_ bytes: Int) -> Bool {
            inUse == 0 || bytes <= capacity - inUse
        }

        private mutating func admitWaiters() -> [Grant] {
            var grants: [Grant] = []
            while let next = queue.first, fits(next.bytes) {
                _ = queue.popFirst()
                inUse += next.bytes
                grants.append(Grant(waiter: next.waiter, bytes: next.bytes))
            }
            return grants
        }
    }
}

// The budget hands these out of its lock; they are values of the waiters it resumes.
extension MemoryBudget.StateMachine.Grant: Sendable where Waiter: Sendable {}
extension MemoryBudget.StateMachine.CancelAction: Sendable where Waiter: Sendable {}
