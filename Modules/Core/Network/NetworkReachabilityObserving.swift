/// Something that knows whether the network is there and says when that changes: the
/// protocol through which the manager (and any other module) opts in to reachability,
/// without depending on the module that reads the kernel's tables (WebImageReachability's
/// `NetworkReachabilityMonitor`).
///
/// Thread contract: every requirement may be called from any thread.
public protocol NetworkReachabilityObserving: Sendable {
    /// The latest status known; ``NetworkReachabilityStatus/unknown`` before the first.
    var currentStatus: NetworkReachabilityStatus { get }

    /// Calls `handler` with each new status, on `delivery`, until the observation is
    /// cancelled. It is called first with the current status, then with every change
    /// (never twice in a row with the same status).
    ///
    /// - Returns: a token; cancelling it stops the calls (one already handed to
    ///   `delivery` may still run).
    func observe(
        delivery: CallbackDelivery, _ handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void
    ) -> ReachabilityObservation
}

/// An observer's hold on a reachability observation. Cancelling stops the calls.
public final class ReachabilityObservation: Cancellable, Hashable {
    private let onCancel: @Sendable () -> Void

    /// An observation that runs `onCancel` on each ``cancel()`` (the observer makes it
    /// idempotent).
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the calls. Safe from any thread, any number of times.
    public func cancel() { onCancel() }

    public static func == (lhs: ReachabilityObservation, rhs: ReachabilityObservation) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
