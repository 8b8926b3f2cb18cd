import Foundation
import WebImageCore

/// The manager's opt-in to reachability (``ImageManager/Configuration/networkRecovery``):
/// a download that failed because the network was down waits for it to come back and is
/// tried again, and the download queue may pause while the network is unreachable.
///
/// ```swift
/// var configuration = ImageManager.Configuration()
/// configuration.networkRecovery = NetworkRecovery(observer: try NetworkReachabilityMonitor())
/// ```
///
/// What waits: a download whose transport error says the network was not there (the
/// host did not resolve, the connection was refused or unreachable, the connect timed
/// out, the connection broke before any response) while ``observer`` reports
/// `NetworkReachabilityStatus.unreachable`. Any other failure, or the same failure
/// while the network is reachable (the server is down, not the network), completes at
/// once as before.
///
/// The bound: each wait lasts at most ``maximumWait`` (then the load fails with the
/// error it had), and a load waits at most ``maximumRetries`` times. Cancelling the load
/// ends its wait at once with `cancelled`. The wait belongs to the load's run, so every
/// load sharing the run waits with it, and a pause or a raised priority holds for the
/// attempt after the wait. A revalidation behind a stale answer does not wait: the next
/// load of the resource revalidates again.
public struct NetworkRecovery: Sendable {
    /// Says whether the network is there (WebImageReachability's
    /// `NetworkReachabilityMonitor`, or any other implementation).
    public var observer: any NetworkReachabilityObserving
    /// How long one load waits for the network before it fails with its error (60 s).
    public var maximumWait: Duration
    /// How many times one load may wait and try again (3).
    public var maximumRetries: Int
    /// Whether the downloader's queue stops starting downloads while the network is
    /// unreachable, and starts again when it is back (needs a downloader that is
    /// `DownloadQueueSuspending`, as WebImageOperations' `ImageDownloader` is). Queued
    /// downloads then wait as long as the network is down, with no bound (cancelling a
    /// load still ends it). It takes over the queue's suspension: a `suspend()` of your own
    /// is undone when the network comes back. Off by default.
    public var suspendsQueueWhileUnreachable: Bool
    /// Called, on the thread that reported the failure, each time a load starts waiting
    /// for the network, with its URL: for logs and progress displays. The manager's load
    /// monitors hear the same moment with the failure and the status
    /// (``ImageLoadEventMonitor/load(_:isWaitingForNetworkAfter:status:)``), and the wait's
    /// end.
    public var waitHandler: (@Sendable (URL) -> Void)?

    public init(
        observer: any NetworkReachabilityObserving, maximumWait: Duration = .seconds(60), maximumRetries: Int = 3,
        suspendsQueueWhileUnreachable: Bool = false, waitHandler: (@Sendable (URL) -> Void)? = nil
    ) {
        self.observer = observer
        self.maximumWait = maximumWait
        self.maximumRetries = maximumRetries
        self.suspendsQueueWhileUnreachable = suspendsQueueWhileUnreachable
        self.waitHandler = waitHandler
    }

    /// The transport failures that mean "the network was not there": no response had
    /// begun, and the code is one the network's absence gives.
    public static func isNetworkDown(_ error: DownloadError) -> Bool {
        guard case .transport(let failure) = error, failure.response == nil else { return false }
        return networkDownCodes.contains(failure.code)
    }

    private static let networkDownCodes: Set<TransportError.Code> = [
        .dnsFailure, .connectionRefused, .connectTimeout, .connectionReset, .timedOut, .stalled,
    ]
}
