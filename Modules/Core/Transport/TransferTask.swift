import Foundation

/// Something in flight that can be called off.
public protocol Cancellable: Sendable {
    /// Stops the work. Safe from any thread, any number of times; only the first call
    /// counts.
    func cancel()
}

/// The handle of one transfer: its identity, and the way to cancel, pause and resume it.
///
/// Cancelling takes effect at once: no body byte is delivered after ``cancel()`` returns,
/// and the delegate's completion follows promptly with ``TransportError/Code/cancelled``
/// (unless the transfer had already completed).
///
/// Pausing takes effect at once too: no body byte is delivered after ``pause()`` returns
/// until ``resume()``. Nothing is lost or repeated: what the server sent meanwhile waits
/// in the transport (and, past its buffers, in the server, by TCP or HTTP/2 flow
/// control) and is delivered after the resume, in order. A paused transfer keeps its
/// connection; its paused time counts against none of its timeouts. Cancelling works
/// while paused. Pausing a finished or cancelled transfer does nothing.
public final class TransferTask: Cancellable, Hashable, CustomStringConvertible {
    /// Unique within the process.
    public let id: UInt64
    // Foundation's lock, not an atomic: Core imports nothing but Foundation, and the
    // thread sanitizer sees this lock (a pthread mutex).
    private let lock = NSLock()
    nonisolated(unsafe) private var cancelled = false
    nonisolated(unsafe) private var paused = false
    private let onCancel: @Sendable (TransferTask) -> Void
    private let onPauseChange: (@Sendable (TransferTask, _ paused: Bool) -> Void)?

    /// For transports: `onCancel` runs once, on the cancelling thread.
    ///
    /// `onPauseChange` runs on the pausing or resuming thread each time ``isPaused``
    /// changes, inside the task's lock, so that a pause and a resume made in quick
    /// succession reach the transport in the order they were made: it must only hand
    /// the command over (post it to the transport's thread), never call back into the
    /// task. A transport that cannot pause passes `nil`; ``pause()`` then does nothing.
    public init(
        onCancel: @escaping @Sendable (TransferTask) -> Void,
        onPauseChange: (@Sendable (TransferTask, _ paused: Bool) -> Void)? = nil
    ) {
        id = TransferIdentifiers.next()
        self.onCancel = onCancel
        self.onPauseChange = onPauseChange
    }

    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Whether the transfer is paused: ``pause()`` was called and ``resume()`` not since
    /// (a cancelled transfer keeps the state it had).
    public var isPaused: Bool { lock.withLock { paused } }

    /// For transports: both flags under one lock, read once per body chunk.
    public var state: (isCancelled: Bool, isPaused: Bool) { lock.withLock { (cancelled, paused) } }

    public func cancel() {
        let first = lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
        if first { onCancel(self) }
    }

    /// Stops the delivery of body bytes until ``resume()``; see the type's overview.
    /// Safe from any thread (the transfer's delegate included), any number of times.
    public func pause() { setPaused(true) }

    /// Delivers the body again from where ``pause()`` stopped it. Safe from any thread,
    /// any number of times; does nothing when the transfer is not paused.
    public func resume() { setPaused(false) }

    private func setPaused(_ wanted: Bool) {
        guard let onPauseChange else { return }
        lock.withLock {
            guard !cancelled, paused != wanted else { return }
            paused = wanted
            onPauseChange(self, wanted)
        }
    }

    public static func == (lhs: TransferTask, rhs: TransferTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { "TransferTask(\(id))" }
}

/// The process-wide sequence of transfer identifiers.
private enum TransferIdentifiers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: UInt64 = 0

    static func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
