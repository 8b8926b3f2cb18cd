import Synchronization

/// What a test waits on instead of sleeping: a hook of the code under test (an event
/// monitor, an observer of a count) calls ``signal()`` at each change, and ``wait(until:)``
/// reads the condition again at each signal. One task waits on a signal at a time.
public final class EventSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Says that something changed. From any thread.
    public func signal() {
        continuation.yield()
    }

    /// ``signal()`` as a closure, for a hook.
    public var callback: @Sendable () -> Void {
        { [continuation] in continuation.yield() }
    }

    /// Waits, one signal at a time, until `condition` holds. The bound is the test's time
    /// limit: a cancelled task stops waiting at once.
    public func wait(until condition: () -> Bool) async {
        await stream.wait(until: condition)
    }

    /// Waits, one signal at a time, until `condition` holds, and returns whether it does.
    /// `limit` only bounds a wait whose event never comes, so that the test fails with its
    /// own message rather than at its time limit: the wait ends at the signal, not at a
    /// polling tick.
    public func wait(upTo limit: Duration, until condition: () -> Bool) async -> Bool {
        let expired = Expiry()
        let timer = Task { [continuation] in
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            expired.flag.store(true, ordering: .releasing)
            continuation.yield()
        }
        defer { timer.cancel() }
        await stream.wait { condition() || expired.flag.load(ordering: .acquiring) }
        return condition()
    }
}

/// Whether a bounded wait's limit passed.
private final class Expiry: Sendable {
    let flag = Atomic<Bool>(false)
}
