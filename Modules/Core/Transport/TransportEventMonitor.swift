import Foundation

/// Observes every transfer of a transport: for logging, metrics and tracing (Alamofire's
/// `EventMonitor`). Every method has an empty default, so a monitor implements only what
/// it needs.
///
/// Each monitor's methods run where its ``delivery`` says, one at a time, in the order
/// things happened: by default on a serial queue the transport monitors share, never on
/// the transport's own thread, so a slow monitor delays no transfer.
public protocol TransportEventMonitor: Sendable {
    /// Where this monitor's methods run. The default is one serial queue shared by the
    /// monitors that do not choose. `.immediate` runs them on the transport's thread as
    /// things happen (for a monitor that only counts or timestamps): keep it quick there.
    var delivery: CallbackDelivery { get }
    func transferDidStart(_ task: TransferTask, request: TransportRequest)
    /// A hop of the transfer waits for a connection (Alamofire's waiting for
    /// connectivity): its origin (scheme, host and port) already has as many transfers
    /// under way as the transport's per-host limit lets connections carry, or transfers
    /// waiting before it, so the transport holds it back, unsent, first started first
    /// served. `request` is the hop's: a redirect's URL, method and headers for a later
    /// hop. The hop is sent when a connection comes free, or the transfer ends unsent:
    /// cancelled, shut down, or ``TransportError/Code/waitedForConnection`` once its
    /// whole-transfer timeout has passed.
    ///
    /// Told once per wait, as it begins. Not told for a hop that finds a free slot, nor
    /// for a transfer paused before its hop starts (it waits for its resume, not for a
    /// connection). Told again for each later wait: a later hop's (a redirect, an
    /// authentication retry, a reconnection after a revocation fetch), or a waiting
    /// transfer's that was paused (it leaves the queue) and resumed (it queues again at
    /// the back). Not told for waits libcurl keeps to itself, with no signal per
    /// transfer: the total-connection limit (`maximumTotalConnections`, off by default);
    /// and where HTTPS requests may share HTTP/2 connections, a request waiting for a
    /// handshake under way to learn whether it can share it, or let through as a stream
    /// to a server that turns out to speak only HTTP/1.1. Not told for the network's
    /// state either: the transport does not watch it (the manager's network recovery
    /// waits for the network).
    func transferIsWaitingForConnection(_ task: TransferTask, request: TransportRequest)
    func transfer(_ task: TransferTask, didReceive response: TransportResponse)
    func transfer(_ task: TransferTask, didReceiveBytes count: Int, progress: TransferProgress)
    /// A redirect is about to be followed from `response` to `url`.
    func transfer(_ task: TransferTask, willRedirectTo url: URL, from response: TransportResponse)
    /// A server's certificate chain was evaluated during the TLS handshake.
    func transfer(_ task: TransferTask, didEvaluateServerTrustFor host: String, error: ServerTrustError?)
    /// The transport fetched a revocation answer for the certificate of `report.host`
    /// (``OnlineRevocation``), for this transfer, before connecting again.
    func transfer(_ task: TransferTask, didFetchRevocation report: RevocationFetchReport)
    /// The certificate of `host` was let through without a revocation answer: its
    /// responder could not be reached (`reason` says how) and the evaluator soft-fails
    /// (``OnlineRevocation/UnreachablePolicy/softFail``). Told at each such handshake.
    func transfer(_ task: TransferTask, didSoftFailRevocationFor host: String, reason: String)
    /// An authentication challenge was answered.
    func transfer(_ task: TransferTask, didReceive challenge: AuthenticationChallenge, disposition: ChallengeDisposition)
    /// The transfer's metrics are complete, one transaction per hop (Alamofire's metrics
    /// collected): told once per transfer, succeeded or failed, just before
    /// ``transfer(_:didComplete:)``, whose completion carries the same metrics.
    func transfer(_ task: TransferTask, didCollect metrics: TransferMetrics)
    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion)
    /// The transfer paused (``TransferTask/pause()``): no body byte until it resumes.
    func transferDidPause(_ task: TransferTask)
    /// The paused transfer resumed (``TransferTask/resume()``).
    func transferDidResume(_ task: TransferTask)
    /// The transport was shut down (invalidated): its `endedTransfers` transfers under way
    /// have completed with ``TransportError/Code/invalidated`` (each reported to
    /// ``transfer(_:didComplete:)`` first), and every later one is refused with
    /// ``TransportError/Code/transportClosed``. Told once per transport, by its first
    /// explicit shutdown; a transport dropped without one is not invalidated.
    func transportDidInvalidate(endedTransfers: Int)
}

/// The queue transport monitors share when they do not choose one.
private let sharedTransportMonitorQueue = DispatchQueue(label: "webimage.transport-monitors")

extension TransportEventMonitor {
    public var delivery: CallbackDelivery { .queue(sharedTransportMonitorQueue) }
    public func transferDidStart(_ task: TransferTask, request: TransportRequest) {}
    public func transferIsWaitingForConnection(_ task: TransferTask, request: TransportRequest) {}
    public func transfer(_ task: TransferTask, didReceive response: TransportResponse) {}
    public func transfer(_ task: TransferTask, didReceiveBytes count: Int, progress: TransferProgress) {}
    public func transfer(_ task: TransferTask, willRedirectTo url: URL, from response: TransportResponse) {}
    public func transfer(_ task: TransferTask, didEvaluateServerTrustFor host: String, error: ServerTrustError?) {}
    public func transfer(_ task: TransferTask, didFetchRevocation report: RevocationFetchReport) {}
    public func transfer(_ task: TransferTask, didSoftFailRevocationFor host: String, reason: String) {}
    public func transfer(_ task: TransferTask, didReceive challenge: AuthenticationChallenge, disposition: ChallengeDisposition) {}
    public func transfer(_ task: TransferTask, didCollect metrics: TransferMetrics) {}
    public func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {}
    public func transferDidPause(_ task: TransferTask) {}
    public func transferDidResume(_ task: TransferTask) {}
    public func transportDidInvalidate(endedTransfers: Int) {}
}
