import Foundation

/// Observes a downloader's whole lifecycle, for logging, metrics and tracing (Alamofire's
/// `EventMonitor`, with SDWebImage's start, receive-response, stop and finish
/// notifications among the events).
///
/// Every method has an empty default, so a monitor implements only what it needs. Each
/// monitor is called on its own ``queue``, never on the transfer's thread, so a slow
/// monitor delays nothing but itself.
public protocol DownloadEventMonitor: Sendable {
    /// The queue this monitor's methods run on. The default is one serial queue shared
    /// by the monitors that do not choose.
    var queue: DispatchQueue { get }

    /// A request made new work: the first subscriber of its key.
    func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority)
    /// A request joined work already under way for its key (coalesced).
    func download(_ key: DownloadKey, didCoalesce priority: DownloadPriority, subscribers: Int)
    /// A subscriber left before the end.
    func download(_ key: DownloadKey, subscriberDidCancel token: SubscriptionToken)
    /// An attempt started: the queue gave it a slot and the request modifier passed it.
    func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int)
    /// The response head arrived (SDWebImage's receive-response notification).
    func download(_ key: DownloadKey, didReceive response: TransportResponse)
    /// An attempt failed transiently; another follows after `delay`.
    func download(_ key: DownloadKey, willRetryAfter delay: Duration, error: TransportError, attempt: Int)
    /// The work was stopped because nobody wants it any more, or everything was
    /// cancelled (SDWebImage's stop notification).
    func downloadDidStop(_ key: DownloadKey)
    /// The work ended and every subscriber got `result` (SDWebImage's finish
    /// notification).
    func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int)
    /// The download's transfer paused: every subscriber still present has paused it.
    func downloadDidPause(_ key: DownloadKey)
    /// The paused download's transfer resumed: a subscriber resumed, or one that had not
    /// paused joined it.
    func downloadDidResume(_ key: DownloadKey)
}

/// The queue monitors share when they do not choose one.
private let sharedMonitorQueue = DispatchQueue(label: "webimage.monitors")

extension DownloadEventMonitor {
    public var queue: DispatchQueue { sharedMonitorQueue }
    public func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) {}
    public func download(_ key: DownloadKey, didCoalesce priority: DownloadPriority, subscribers: Int) {}
    public func download(_ key: DownloadKey, subscriberDidCancel token: SubscriptionToken) {}
    public func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int) {}
    public func download(_ key: DownloadKey, didReceive response: TransportResponse) {}
    public func download(_ key: DownloadKey, willRetryAfter delay: Duration, error: TransportError, attempt: Int) {}
    public func downloadDidStop(_ key: DownloadKey) {}
    public func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {}
    public func downloadDidPause(_ key: DownloadKey) {}
    public func downloadDidResume(_ key: DownloadKey) {}
}
