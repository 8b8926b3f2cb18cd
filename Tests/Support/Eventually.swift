/// Waits, polling every 10 ms up to `limit`, until `condition` holds; returns whether it
/// did. Only for a state that nothing announces, such as a node's backoff ending on a
/// client's clock, where only the next command finds out; where the code under test can
/// say that its state changed, wait on an ``EventSignal`` instead. A cancelled task stops
/// waiting at once and gives the condition's last answer.
public func eventually(within limit: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline, !Task.isCancelled {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
