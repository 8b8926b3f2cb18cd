/// Waits, polling every 10 ms up to `limit`, until `condition` holds; returns whether it
/// did. For a state reached with no single event to await (every registry empty after a
/// fault, a node's backoff over, an entry's expiry). A cancelled task stops waiting at
/// once and gives the condition's last answer.
public func eventually(within limit: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline, !Task.isCancelled {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
