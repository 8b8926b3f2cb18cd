/// Whether a node is tried: up, or down until its backoff ends. A failure (no
/// connection, a timeout, a broken connection) takes it down for `initialBackoff`,
/// doubling with each failure in a row up to `maximumBackoff`; once the backoff has
/// passed, the next command tries it again, and a reply brings it back up. Pure: the
/// event loop passes the time in.
struct NodeHealth: Sendable, Equatable {
    enum State: Sendable, Equatable {
        case up
        case down(until: ContinuousClock.Instant)
    }

    let initialBackoff: Duration
    let maximumBackoff: Duration
    private(set) var state = State.up
    /// Failures since the last reply.
    private(set) var failuresInARow = 0

    init(initialBackoff: Duration, maximumBackoff: Duration) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = max(initialBackoff, maximumBackoff)
    }

    /// Whether a command may be sent now: up, or down with its backoff over (a retry).
    func admits(at now: ContinuousClock.Instant) -> Bool {
        switch state {
        case .up: true
        case .down(let until): now >= until
        }
    }

    /// The node failed at `now`: down for the next backoff.
    mutating func failed(at now: ContinuousClock.Instant) {
        failuresInARow += 1
        var backoff = initialBackoff
        for _ in 1..<min(failuresInARow, 32) where backoff < maximumBackoff { backoff = backoff * 2 }
        state = .down(until: now + min(backoff, maximumBackoff))
    }

    /// The node replied.
    mutating func succeeded() {
        failuresInARow = 0
        state = .up
    }
}
