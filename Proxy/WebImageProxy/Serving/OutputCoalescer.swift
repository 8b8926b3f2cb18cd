import NIOConcurrencyHelpers

/// One render per output at a time: a request for an output already being made waits
/// for that render instead of starting its own (one source fetch, one decode, one
/// encode). The render is not cancelled when a client goes away: its output still
/// serves the others, and the cache.
final class OutputCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = NIOLockedValueBox([Key: Task<Value, any Error>]())

    /// Renders running now.
    var count: Int { inFlight.withLockedValue { $0.count } }

    /// The value for `key`, made by `make` unless a render of it is running; `joined`
    /// says which.
    func value(for key: Key, make: @escaping @Sendable () async throws -> Value) async throws -> (value: Value, joined: Bool) {
        let (task, joined) = inFlight.withLockedValue { running -> (Task<Value, any Error>, Bool) in
            if let task = running[key] { return (task, true) }
            let task = Task { try await make() }
            running[key] = task
            return (task, false)
        }
        if joined { return (try await task.value, true) }
        let result = await task.result
        inFlight.withLockedValue { _ = $0.removeValue(forKey: key) }
        return (try result.get(), false)
    }
}
