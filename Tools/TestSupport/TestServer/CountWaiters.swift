/// Tests waiting for a server counter (recorded requests, failed handshakes) to reach a
/// number. Kept inside the server's locked state; the continuations it hands back are
/// resumed by the caller after the lock is released.
struct CountWaiters {
    private var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Keeps `continuation` until the counter reaches `count`.
    mutating func add(_ continuation: CheckedContinuation<Void, Never>, until count: Int) {
        waiting.append((count, continuation))
    }

    /// The waiters whose number `count` has reached, taken out.
    mutating func reached(_ count: Int) -> [CheckedContinuation<Void, Never>] {
        let ready = waiting.filter { $0.count <= count }.map(\.continuation)
        if !ready.isEmpty { waiting.removeAll { $0.count <= count } }
        return ready
    }
}
