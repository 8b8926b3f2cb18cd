/// How a transfer ended: the response or the error, and what it cost.
public struct TransferCompletion: Sendable {
    /// The final response head (after redirects), or why the transfer failed.
    public var result: Result<TransportResponse, TransportError>
    /// Gathered before the completion is delivered, also for failures.
    public var metrics: TransferMetrics

    public init(result: Result<TransportResponse, TransportError>, metrics: TransferMetrics) {
        self.result = result
        self.metrics = metrics
    }
}

/// Receives one transfer's events, in order: the response head once, body bytes zero or
/// more times, then the completion exactly once.
///
/// Events arrive on the transport's own thread, which drives every transfer of that
/// transport: return quickly and never block in them (hand heavy work to another queue).
/// A response with status 400 or above, a redirect being followed and a 401 being retried
/// are not delivered as responses; they end in the completion.
public protocol TransferDelegate: Sendable {
    func transfer(_ task: TransferTask, didReceive response: TransportResponse)
    /// `bytes` is valid only during the call: copy what you keep.
    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress)
    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion)
}

extension TransferDelegate {
    public func transfer(_ task: TransferTask, didReceive response: TransportResponse) {}
    public func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {}
}

/// Fetches bytes: HTTP(S), `file:` and `data:` URLs.
public protocol Transporting: Sendable {
    /// Starts a transfer. The delegate is retained until its completion has been delivered.
    @discardableResult
    func start(_ request: TransportRequest, delegate: any TransferDelegate) -> TransferTask

    /// Stops the transport, and returns once it has stopped: transfers not yet completed
    /// complete with ``TransportError/Code/invalidated``, later ones are refused
    /// (``TransportError/Code/transportClosed``), and its threads and connections
    /// are let go. Idempotent. Whoever made the transport calls it when done with it.
    func shutdown() async
}

extension Transporting {
    /// A transport that holds no thread or connection of its own has nothing to stop.
    public func shutdown() async {}
}
