import Synchronization
import WebImageConcurrency
import WebImageCore

/// A queue of downloads: at most ``maximumConcurrentOperations`` run at once (default 6,
/// like the peers), the waiting ones start by priority and then in the ``order`` chosen.
///
/// Start, finish, cancel and priority changes are O(log n) under one lock that is never
/// held while an operation's work runs. The work of an operation starts on the thread
/// that freed its slot (the one that added it, finished another, resumed the queue or
/// raised the limit), so it must only start something and return: a transfer, a task.
public final class DownloadQueue: Sendable {
    private struct Record {
        var state: QueuedOperation.State
        /// Held while the operation waits, taken as it starts: a stale heap entry, or a
        /// handle kept elsewhere, keeps nothing of the work alive.
        var work: (@Sendable (QueuedOperation) -> Void)?
        var priority: DownloadPriority
        var generation: UInt64 = 0
        let sequence: UInt64
        var holdsSlot = false
    }

    private struct State {
        var heap: QueueOrderHeap
        var records: [UInt64: Record] = [:]
        var pendingCount = 0
        var runningCount = 0
        var maximumConcurrent: Int
        var isSuspended = false
        /// Holds on starting taken by `holdStarts()` and not yet released.
        var startHolds = 0
        var isStarting = false
        var nextSequence: UInt64 = 0
        var running: [UInt64: QueuedOperation] = [:]
    }

    private let state: Locked<State>
    private static let ids = Atomic<UInt64>(0)
    /// Told after every change of the counts or of the holds on starting.
    private let changeObservers = MonitorList<@Sendable () -> Void>()

    /// Waiting operations never run now: they and their work go with the queue, and any
    /// handle still held reads them as cancelled. Running ones end when their work calls
    /// `finish()`.
    deinit {
        state.withLock { state in
            for entry in state.heap.entries where state.records[entry.operation.id]?.state == .pending {
                _ = entry.operation.end(.cancelled)
            }
            for operation in state.running.values where state.records[operation.id]?.state == .cancelled {
                _ = operation.end(.cancelled)
            }
        }
    }

    /// - Parameters:
    ///   - maximumConcurrentOperations: at least 1.
    ///   - order: among waiting operations of equal priority, first in first out
    ///     (the default) or last in first out.
    public init(maximumConcurrentOperations: Int = 6, order: ExecutionOrder = .fifo) {
        state = Locked(State(heap: QueueOrderHeap(order: order), maximumConcurrent: max(1, maximumConcurrentOperations)))
    }

    /// How many operations may run at once. Raising it starts waiting ones at once;
    /// lowering it lets the running ones finish.
    public var maximumConcurrentOperations: Int {
        get { state.withLock { $0.maximumConcurrent } }
        set {
            state.withLock { $0.maximumConcurrent = max(1, newValue) }
            startWaiting()
        }
    }

    /// The order of equal priorities. Changing it reorders the waiting operations.
    public var order: ExecutionOrder {
        get { state.withLock { $0.heap.order } }
        set {
            state.withLock { state in
                let records = state.records
                state.heap.reorder(newValue) { entry in
                    records[entry.operation.id].map { $0.state == .pending && $0.generation == entry.generation } ?? false
                }
            }
        }
    }

    /// Adds an operation at `priority`; it starts when a slot is free.
    ///
    /// - Parameters:
    ///   - priority: the operation's place among the waiting ones.
    ///   - work: starts the work and returns; the work calls ``QueuedOperation/finish()``
    ///     when it is done, also after a cancellation.
    ///   - onCancel: stops the work of a running operation; called by
    ///     ``QueuedOperation/cancel()`` only when it was running.
    @discardableResult
    public func add(
        priority: DownloadPriority = .normal,
        onCancel: @escaping @Sendable () -> Void = {},
        work: @escaping @Sendable (QueuedOperation) -> Void
    ) -> QueuedOperation {
        let id = Self.ids.wrappingAdd(1, ordering: .relaxed).newValue
        let operation = QueuedOperation(id: id, queue: self, onCancel: onCancel)
        state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.records[id] = Record(state: .pending, work: work, priority: priority, sequence: sequence)
            state.pendingCount += 1
            state.heap.push(.init(priority: priority, sequence: sequence, generation: 0, operation: operation))
        }
        changed()
        startWaiting()
        return operation
    }

    /// Stops starting operations; the running ones go on.
    public func suspend() {
        state.withLock { $0.isSuspended = true }
        changed()
    }

    /// Starts operations again.
    public func resume() {
        state.withLock { $0.isSuspended = false }
        changed()
        startWaiting()
    }

    public var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// Adds a hold on starting operations: while any hold is taken, none starts (the
    /// running ones go on). Holds are counted and apart from ``suspend()``: a consumer
    /// that is behind (the manager, while loads wait for its memory budget) holds the
    /// queue without touching the application's own suspension.
    public func holdStarts() {
        state.withLock { $0.startHolds += 1 }
        changed()
    }

    /// Releases one hold taken with ``holdStarts()``; the last one starts the waiting
    /// operations. A release without a hold does nothing.
    public func releaseStarts() {
        let released = state.withLock { state -> Bool in
            guard state.startHolds > 0 else { return false }
            state.startHolds -= 1
            return state.startHolds == 0
        }
        changed()
        if released { startWaiting() }
    }

    /// Whether a hold on starting is taken (see ``holdStarts()``).
    public var isHoldingStarts: Bool { state.withLock { $0.startHolds > 0 } }

    /// Cancels every waiting and running operation.
    public func cancelAll() {
        let (waiting, running) = state.withLock { state in
            (state.heap.entries.map(\.operation), Array(state.running.values))
        }
        // The waiting ones first: a slot a running one gives back must find none to start.
        for operation in waiting { operation.cancel() }
        for operation in running { operation.cancel() }
    }

    /// Operations holding a slot now (running, or cancelled and winding down).
    public var runningCount: Int { state.withLock { $0.runningCount } }

    /// Operations waiting for a slot.
    public var pendingCount: Int { state.withLock { $0.pendingCount } }

    /// Calls `changed` (on the thread that made the change, after the queue's lock is let
    /// go) after each change of ``runningCount``, ``pendingCount``, ``isSuspended`` or
    /// ``isHoldingStarts``: the signal to read them again, so that a test waits for the
    /// state it needs instead of polling. Remove the registration to stop.
    package func observeChanges(_ changed: @escaping @Sendable () -> Void) -> EventMonitorRegistration {
        changeObservers.add(changed, delivery: .immediate)
    }

    private func changed() {
        changeObservers.emit { $0() }
    }

    // MARK: Transitions (owned as QueuedOperation documents)

    /// The state of an operation the queue still holds; `nil` once it let go.
    func state(of operation: QueuedOperation) -> QueuedOperation.State? {
        state.withLock { $0.records[operation.id]?.state }
    }

    func priority(of operation: QueuedOperation) -> DownloadPriority {
        state.withLock { $0.records[operation.id]?.priority } ?? .normal
    }

    func raisePriority(of operation: QueuedOperation, to priority: DownloadPriority) {
        state.withLock { state in
            guard var record = state.records[operation.id], record.state == .pending, priority > record.priority else { return }
            record.priority = priority
            record.generation += 1
            state.records[operation.id] = record
            state.heap.push(.init(priority: priority, sequence: record.sequence, generation: record.generation, operation: operation))
        }
    }

    /// pending or running -> cancelled. Returns whether it was running.
    func cancel(_ operation: QueuedOperation) -> Bool {
        let (wasRunning, wasPending) = state.withLock { state -> (Bool, Bool) in
            guard var record = state.records[operation.id] else { return (false, false) }
            switch record.state {
            case .pending:
                // Its heap entry goes stale; the record goes now.
                state.pendingCount -= 1
                state.records[operation.id] = nil
                _ = operation.end(.cancelled)
                if state.pendingCount == 0 { state.heap.removeAll() }
                return (false, true)
            case .running:
                record.state = .cancelled
                state.records[operation.id] = record
                return (true, false)
            case .finished, .cancelled:
                return (false, false)
            }
        }
        if wasPending { changed() }
        return wasRunning
    }

    /// running (or cancelled while running) -> finished; frees the slot.
    func finish(_ operation: QueuedOperation) {
        let freed = state.withLock { state -> Bool in
            guard let record = state.records[operation.id], record.holdsSlot else { return false }
            state.records[operation.id] = nil
            _ = operation.end(record.state == .cancelled ? .cancelled : .finished)
            state.running[operation.id] = nil
            state.runningCount -= 1
            return true
        }
        guard freed else { return }
        changed()
        startWaiting()
    }

    /// Starts waiting operations while there are free slots. One thread at a time runs
    /// this loop; another that frees a slot meanwhile leaves the start to it, so an
    /// operation that finishes as it starts never makes the stack grow.
    private func startWaiting() {
        while true {
            let next = state.withLock { state -> (QueuedOperation, @Sendable (QueuedOperation) -> Void)? in
                guard !state.isStarting else { return nil }
                guard !state.isSuspended, state.startHolds == 0, state.runningCount < state.maximumConcurrent else { return nil }
                while let entry = state.heap.pop() {
                    guard var record = state.records[entry.operation.id], record.state == .pending,
                        record.generation == entry.generation, let work = record.work
                    else { continue }
                    record.work = nil
                    record.state = .running
                    record.holdsSlot = true
                    state.records[entry.operation.id] = record
                    state.pendingCount -= 1
                    state.runningCount += 1
                    state.running[entry.operation.id] = entry.operation
                    state.isStarting = true
                    return (entry.operation, work)
                }
                return nil
            }
            guard let (operation, work) = next else { return }
            changed()
            work(operation)
            state.withLock { $0.isStarting = false }
        }
    }
}
