/// Waits, polling every 10 ms up to `limit`, until `condition` holds, for effects that
/// follow an event the test already saw (a server noticing a client left, a write made
/// after a load completed). Returns whether it held.
public func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

extension Result {
    /// The failure, if this is one.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
