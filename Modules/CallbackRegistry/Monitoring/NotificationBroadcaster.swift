import Foundation
import WebImageCore

/// Posts the seeds' notifications through Foundation's `NotificationCenter`: SDWebImage's
/// download start, receive-response, stop and finish, and AFNetworking's transfer
/// resume (start), suspend, resume and complete, and its session invalidation. Opt in: add it to a downloader and to a
/// transport (`WebImageConfiguration.postsNotifications` does both), or observe only
/// what you add it to.
///
/// Notifications are posted on the broadcaster's own serial queue, one at a time in the
/// order things happened, so observers run there (never on the transport's thread).
/// Names are `Notification.Name` constants starting `webImage`, and every
/// `userInfo` key is a ``WebImageNotificationKey``:
///
/// | name | object | `userInfo` |
/// |---|---|---|
/// | `webImageDownloadDidStart` | `nil` | url, downloadKey, attempt, request |
/// | `webImageDownloadDidReceiveResponse` | `nil` | url, downloadKey, response, statusCode |
/// | `webImageDownloadDidStop` | `nil` | url, downloadKey |
/// | `webImageDownloadDidFinish` | `nil` | url, downloadKey, subscribers; response, byteCount and body, or error |
/// | `webImageTransferDidStart` | the `TransferTask` | url, transferID, request |
/// | `webImageTransferDidSuspend` / `DidResume` | the `TransferTask` | transferID |
/// | `webImageTransferDidComplete` | the `TransferTask` | url (the last hop's), transferID, metrics; response, statusCode, or error |
/// | `webImageTransportDidInvalidate` | `nil` | transferCount |
///
/// ```swift
/// let observer = NotificationCenter.default.addObserver(forName: .webImageDownloadDidFinish, object: nil, queue: nil) { note in
///     print(note.userInfo?[WebImageNotificationKey.url.rawValue] ?? "?")
/// }
/// ```
public final class NotificationBroadcaster: DownloadEventMonitor, TransportEventMonitor {
    /// Where the notifications are posted.
    public let center: NotificationCenter
    /// The serial queue the notifications are posted on.
    public let queue: DispatchQueue
    /// The largest body a finished download's notification carries under
    /// ``WebImageNotificationKey/body`` (AFNetworking's task-complete response data); a
    /// larger one is left out, its ``WebImageNotificationKey/byteCount`` still there.
    /// `nil`: every body, which the download's own body limit (the downloader's
    /// `maximumBodySize`, 64 MiB by default) already bounds. The body is the download's
    /// own bytes, shared, not copied; an observer that keeps the notification keeps them.
    public let bodyLimit: Int?

    public init(
        center: NotificationCenter = .default, queue: DispatchQueue = DispatchQueue(label: "webimage.notifications"),
        bodyLimit: Int? = nil
    ) {
        self.center = center
        self.queue = queue
        self.bodyLimit = bodyLimit
    }

    public var delivery: CallbackDelivery { .queue(queue) }

    // MARK: The downloader's events (SDWebImage)

    public func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int) {
        post(
            .webImageDownloadDidStart,
            [.url: Self.url(of: key), .downloadKey: key, .attempt: attempt, .request: request])
    }

    public func download(_ key: DownloadKey, didReceive response: TransportResponse) {
        post(
            .webImageDownloadDidReceiveResponse,
            [.url: Self.url(of: key), .downloadKey: key, .response: response, .statusCode: response.statusCode])
    }

    public func downloadDidStop(_ key: DownloadKey) {
        post(.webImageDownloadDidStop, [.url: Self.url(of: key), .downloadKey: key])
    }

    public func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
        var info: [WebImageNotificationKey: Any] = [.url: Self.url(of: key), .downloadKey: key, .subscribers: subscribers]
        switch result {
        case .success(let download):
            info[.response] = download.response
            info[.byteCount] = download.data.count
            if bodyLimit.map({ download.data.count <= $0 }) ?? true { info[.body] = download.data }
        case .failure(let error):
            info[.error] = error
        }
        post(.webImageDownloadDidFinish, info)
    }

    // MARK: The transport's events (AFNetworking)

    public func transferDidStart(_ task: TransferTask, request: TransportRequest) {
        post(.webImageTransferDidStart, [.url: request.url, .transferID: task.id, .request: request], object: task)
    }

    public func transferDidPause(_ task: TransferTask) {
        post(.webImageTransferDidSuspend, [.transferID: task.id], object: task)
    }

    public func transferDidResume(_ task: TransferTask) {
        post(.webImageTransferDidResume, [.transferID: task.id], object: task)
    }

    public func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        var info: [WebImageNotificationKey: Any] = [.transferID: task.id, .metrics: completion.metrics]
        switch completion.result {
        case .success(let response):
            info[.url] = response.url
            info[.response] = response
            info[.statusCode] = response.statusCode
        case .failure(let error):
            if let url = error.url { info[.url] = url }
            info[.error] = error
        }
        post(.webImageTransferDidComplete, info, object: task)
    }

    public func transportDidInvalidate(endedTransfers: Int) {
        post(.webImageTransportDidInvalidate, [.transferCount: endedTransfers])
    }

    /// The key's URL as a `URL` (the key keeps it as a string).
    private static func url(of key: DownloadKey) -> Any { URL(string: key.url) ?? key.url }

    private func post(_ name: Notification.Name, _ info: [WebImageNotificationKey: Any], object: AnyObject? = nil) {
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in info { userInfo[key.rawValue] = value }
        center.post(name: name, object: object, userInfo: userInfo)
    }
}

extension Notification.Name {
    /// An attempt of a download started (SDWebImage's download start).
    public static let webImageDownloadDidStart = Notification.Name("WebImageDownloadDidStart")
    /// A download's response head arrived (SDWebImage's receive response).
    public static let webImageDownloadDidReceiveResponse = Notification.Name("WebImageDownloadDidReceiveResponse")
    /// A download was stopped: nobody wanted it any more, or all were cancelled
    /// (SDWebImage's stop).
    public static let webImageDownloadDidStop = Notification.Name("WebImageDownloadDidStop")
    /// A download ended and every subscriber got its result (SDWebImage's finish).
    public static let webImageDownloadDidFinish = Notification.Name("WebImageDownloadDidFinish")
    /// A transfer started (AFNetworking's task resume, the first time).
    public static let webImageTransferDidStart = Notification.Name("WebImageTransferDidStart")
    /// A transfer was paused (AFNetworking's task suspend).
    public static let webImageTransferDidSuspend = Notification.Name("WebImageTransferDidSuspend")
    /// A paused transfer went on (AFNetworking's task resume).
    public static let webImageTransferDidResume = Notification.Name("WebImageTransferDidResume")
    /// A transfer completed, with its response or error (AFNetworking's task complete).
    public static let webImageTransferDidComplete = Notification.Name("WebImageTransferDidComplete")
    /// A transport was shut down, ending its transfers under way (AFNetworking's session
    /// invalidation).
    public static let webImageTransportDidInvalidate = Notification.Name("WebImageTransportDidInvalidate")
}

/// The `userInfo` keys of the ``NotificationBroadcaster``'s notifications; each is the
/// key's `rawValue` string in the dictionary.
public struct WebImageNotificationKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The `URL`: the request's, or for a completed transfer its last hop's.
    public static let url = WebImageNotificationKey(rawValue: "WebImageURL")
    /// The `DownloadKey` of the download.
    public static let downloadKey = WebImageNotificationKey(rawValue: "WebImageDownloadKey")
    /// The attempt number (`Int`, from 1).
    public static let attempt = WebImageNotificationKey(rawValue: "WebImageAttempt")
    /// The `TransportRequest` sent.
    public static let request = WebImageNotificationKey(rawValue: "WebImageRequest")
    /// The `TransportResponse` head.
    public static let response = WebImageNotificationKey(rawValue: "WebImageResponse")
    /// The response's HTTP status (`Int`).
    public static let statusCode = WebImageNotificationKey(rawValue: "WebImageStatusCode")
    /// Why it failed: a `DownloadError` (downloads) or `TransportError` (transfers).
    public static let error = WebImageNotificationKey(rawValue: "WebImageError")
    /// How many subscribers got the result (`Int`).
    public static let subscribers = WebImageNotificationKey(rawValue: "WebImageSubscribers")
    /// The body's size in bytes (`Int`).
    public static let byteCount = WebImageNotificationKey(rawValue: "WebImageByteCount")
    /// The body itself (`Data`), up to the broadcaster's
    /// ``NotificationBroadcaster/bodyLimit``.
    public static let body = WebImageNotificationKey(rawValue: "WebImageBody")
    /// The transfer's `TransferTask.id` (`UInt64`).
    public static let transferID = WebImageNotificationKey(rawValue: "WebImageTransferID")
    /// The transfer's `TransferMetrics`.
    public static let metrics = WebImageNotificationKey(rawValue: "WebImageMetrics")
    /// How many transfers an invalidation ended (`Int`).
    public static let transferCount = WebImageNotificationKey(rawValue: "WebImageTransferCount")
}
