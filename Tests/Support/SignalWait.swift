extension AsyncStream where Element == Void {
    /// Waits, one signal at a time, until `condition` holds. Returns early when the task
    /// is cancelled (a test's time limit): a cancelled task's stream ends at once, so a
    /// bare loop over it would spin at full speed and starve the rest of the run.
    public func wait(until condition: () -> Bool) async {
        while !condition() {
            for await _ in self { break }
            if Task.isCancelled { return }
        }
    }
}
