import Synchronization

@testable import WebImageConcurrency

/// A clock that moves only when the test moves it: a timer (a task waiting on the clock)
/// fires when ``advance(by:)`` passes its deadline, so waits take no real time. It
/// starts at zero.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// The time since the clock started.
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Timer {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var timers: [Timer] = []
        /// Timers, and watchers, cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        var watchers: [Watcher] = []
        var asked: [Duration] = []

        /// Takes the watchers whose count is met.
        mutating func satisfiedWatchers() -> [Watcher] {
            let met = watchers.filter { $0.count == timers.count }
            watchers.removeAll { $0.count == timers.count }
            return met
        }
    }

    private let state = Locked(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Every wait asked of the clock so far, in order.
    public var askedDurations: [Duration] { state.withLock { $0.asked } }

    /// How many timers wait now.
    public var timerCount: Int { state.withLock { $0.timers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.asked.append(state.now.duration(to: deadline))
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, met) = state.withLock { state -> (Result<Void, any Error>?, [Watcher]) in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.timers.append(Timer(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.satisfiedWatchers())
                }
                if let outcome { continuation.resume(with: outcome) }
                for watcher in met { watcher.continuation.resume() }
            }
        } onCancel: {
            let (timer, met) = state.withLock { state -> (Timer?, [Watcher]) in
                guard let index = state.timers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return (nil, [])
                }
                let timer = state.timers.remove(at: index)
                return (timer, state.satisfiedWatchers())
            }
            timer?.continuation.resume(throwing: CancellationError())
            for watcher in met { watcher.continuation.resume() }
        }
    }

    /// Moves the time on by `duration`, waking every timer whose deadline it passes.
    public func advance(by duration: Duration) {
        let (due, met) = state.withLock { state -> ([Timer], [Watcher]) in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.timers.removeAll { $0.deadline <= now }
            return (due, state.satisfiedWatchers())
        }
        for timer in due { timer.continuation.resume() }
        for watcher in met { watcher.continuation.resume() }
    }

    /// Returns once exactly `count` timers wait, or once the task is cancelled (the
    /// test's time limit), so that a count never reached fails the test instead of
    /// holding up the run.
    public func waitForTimers(_ count: Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let met = state.withLock { state -> Bool in
                    guard state.cancelled.remove(id) == nil, state.timers.count != count else { return true }
                    state.watchers.append(Watcher(id: id, count: count, continuation: continuation))
                    return false
                }
                if met { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> Watcher? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.watchers.remove(at: index)
            }
            watcher?.continuation.resume()
        }
    }
}
