import Dispatch
import Synchronization

/// Waits on the benchmark's thread for a known number of completions reported from any
/// thread (callback APIs, whose handlers run on the library's threads).
final class Countdown: Sendable {
    private let remaining: Atomic<Int>
    private let done = DispatchSemaphore(value: 0)

    init(_ count: Int) {
        remaining = Atomic(count)
        if count == 0 { done.signal() }
    }

    /// One completion; the last one wakes ``wait()``.
    func finish() {
        if remaining.subtract(1, ordering: .relaxed).newValue == 0 { done.signal() }
    }

    func wait() { done.wait() }
}
