import Synchronization
import WebImageCore

/// The handle of an event monitor added to a running transport, downloader or manager:
/// ``remove()`` it to stop its events.
///
/// Once ``remove()`` returns, no call to the monitor starts, and a call that was under
/// way on another thread has returned (a monitor may remove itself from inside its own
/// callback). Events already handed to the monitor's queue before the removal are
/// dropped there, not delivered. Dropping the registration does not remove the monitor:
/// a monitor added for the life of its owner needs no bookkeeping.
public final class EventMonitorRegistration: Cancellable {
    private let onRemove: Locked<(@Sendable () -> Void)?>

    init(onRemove: @escaping @Sendable () -> Void) {
        self.onRemove = Locked(onRemove)
    }

    /// Stops the monitor's events. Safe from any thread, any number of times.
    public func remove() {
        let action = onRemove.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// The same as ``remove()``.
    public func cancel() { remove() }
}
