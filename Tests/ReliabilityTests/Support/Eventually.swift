/// Waits, polling every 10 ms up to `limit`, until `condition` holds. Only for the
/// after-fault check that the downloader and both registries are empty: a fault may end a
/// load before any download began, so there is no single event to await for all of them.
/// Returns whether it held.
func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
