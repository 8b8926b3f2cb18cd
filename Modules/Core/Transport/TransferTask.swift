import Synchronization

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
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: @Sendable (TransferTask) -> Void

    private static let nextID = Atomic<UInt64>(1)

    /// For transports: `onCancel` runs once, on the cancelling thread.
    public init(onCancel: @escaping @Sendable (TransferTask) -> Void) {
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
        self.onCancel = onCancel
    }

    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    public func cancel() {
        guard cancelled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        onCancel(self)
    }

    public static func == (lhs: TransferTask, rhs: TransferTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { "TransferTask(\(id))" }
}
