import NIOConcurrencyHelpers

/// At most `width` renders at once, and at most `capacity` more waiting in order; a
/// request beyond those is refused at once (429 with `Retry-After`) instead of growing a
/// queue whose tail would time out anyway. A waiter that is cancelled leaves the queue.
final class ProcessingQueue: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        var head = 0
        var nextID: UInt64 = 0
        var waitingCount: Int { waiters.count - head }
    }

    let width: Int
    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(width: Int, capacity: Int) {
        precondition(width > 0 && capacity >= 0, "a processing queue needs a width")
        self.width = width
        self.capacity = capacity
    }

    /// Renders running and waiting, for a gauge.
    var load: (running: Int, waiting: Int) { state.withLockedValue { ($0.running, $0.waitingCount) } }

    /// Runs `work` when a slot is free.
    ///
    /// - Throws: ``ProxyError`` `busy` when `capacity` requests already wait;
    ///   `CancellationError` when the task is cancelled while it waits.
    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await work()
    }

    private func enter() async throws {
        enum Admission {
            case now, refused
            case wait(UInt64)
        }
        let admission = state.withLockedValue { state -> Admission in
            if state.running < width {
                state.running += 1
                return .now
            }
            guard state.waitingCount < capacity else { return .refused }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch admission {
        case .now: return
        case .refused: throw ProxyError(.busy, "the processing queue is full (\(width) running, \(capacity) waiting)")
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLockedValue { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let removed = state.withLockedValue { state -> Waiter? in
                    guard let index = state.waiters[state.head...].firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                removed?.continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    private func leave() {
        let next = state.withLockedValue { state -> Waiter? in
            guard state.waitingCount > 0 else {
                state.running -= 1
                return nil
            }
            let waiter = state.waiters[state.head]
            state.head += 1
            // Drop the served prefix now and then: amortised constant per waiter.
            if state.head > 64, state.head * 2 > state.waiters.count {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return waiter
        }
        next?.continuation.resume()
    }
}
