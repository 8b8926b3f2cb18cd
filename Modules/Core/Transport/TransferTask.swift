import Foundation

/// Something in flight that can be called off.
public protocol Cancellable: Sendable {
    /// Stops the work. Safe from any thread, any number of times; only the first call
    /// counts.
    func cancel()
}

/// The handle of one transfer: its identity, and the way to cancel it.
///
/// Cancelling takes effect at once: no body byte is delivered after ``cancel()`` returns,
/// and the delegate's completion follows promptly with ``TransportError/Code/cancelled``
/// (unless the transfer had already completed).
public final class TransferTask: Cancellable, Hashable, CustomStringConvertible {
    /// Unique within the process.
    public let id: UInt64
    // Foundation's lock, not an atomic: Core imports nothing but Foundation, and the
    // thread sanitizer sees this lock (a pthread mutex).
    private let lock = NSLock()
    nonisolated(unsafe) private var cancelled = false
    private let onCancel: @Sendable (TransferTask) -> Void

    /// For transports: `onCancel` runs once, on the cancelling thread.
    public init(onCancel: @escaping @Sendable (TransferTask) -> Void) {
        id = TransferIdentifiers.next()
        self.onCancel = onCancel
    }

    public var isCancelled: Bool { lock.withLock { cancelled } }

    public func cancel() {
        let first = lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
        if first { onCancel(self) }
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
