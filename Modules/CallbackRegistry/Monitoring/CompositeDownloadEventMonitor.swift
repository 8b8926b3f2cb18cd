import Dispatch
import WebImageCore

/// Many download event monitors as one (Alamofire's `CompositeEventMonitor`): each event
/// goes to every monitor on that monitor's own `DownloadEventMonitor.queue`, so a slow
/// monitor holds up only itself. Give it to a downloader as its monitor.
public struct CompositeDownloadEventMonitor: DownloadEventMonitor {
    public let monitors: [any DownloadEventMonitor]
    /// Where the composite receives events before fanning them out; serial, so every
    /// monitor sees them in the order they happened.
    public let queue: DispatchQueue

    public init(_ monitors: [any DownloadEventMonitor], queue: DispatchQueue = DispatchQueue(label: "webimage.monitors.composite")) {
        self.monitors = monitors
        self.queue = queue
    }

    private func each(_ event: @escaping @Sendable (any DownloadEventMonitor) -> Void) {
        for monitor in monitors { monitor.queue.async { event(monitor) } }
    }

    public func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) {
        each { $0.downloadWasQueued(key, priority: priority) }
    }

    public func download(_ key: DownloadKey, didCoalesce priority: DownloadPriority, subscribers: Int) {
        each { $0.download(key, didCoalesce: priority, subscribers: subscribers) }
    }

    public func download(_ key: DownloadKey, subscriberDidCancel token: SubscriptionToken) {
        each { $0.download(key, subscriberDidCancel: token) }
    }

    public func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int) {
        each { $0.downloadDidStart(key, request: request, attempt: attempt) }
    }

    public func download(_ key: DownloadKey, didReceive response: TransportResponse) {
        each { $0.download(key, didReceive: response) }
    }

    public func download(_ key: DownloadKey, willRetryAfter delay: Duration, error: TransportError, attempt: Int) {
        each { $0.download(key, willRetryAfter: delay, error: error, attempt: attempt) }
    }

    public func downloadDidStop(_ key: DownloadKey) {
        each { $0.downloadDidStop(key) }
    }

    public func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
        each { $0.download(key, didFinish: result, subscribers: subscribers) }
    }

    public func downloadDidPause(_ key: DownloadKey) {
        each { $0.downloadDidPause(key) }
    }

    public func downloadDidResume(_ key: DownloadKey) {
        each { $0.downloadDidResume(key) }
    }
}
