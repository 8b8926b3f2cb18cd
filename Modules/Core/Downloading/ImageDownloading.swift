/// The events of one download subscriber: progress, partial images of a progressive
/// download, then exactly one result.
public typealias DownloadEvent = SubscriberEvent<DecodedImage, DownloadResult, DownloadError>

/// Turns download requests into bytes: the role of SDWebImage's downloader, seen by a
/// manager through this protocol only.
public protocol ImageDownloading: Sendable {
    /// Starts (or joins) the download of `request`.
    ///
    /// - Parameters:
    ///   - request: what to download; requests with an equal ``DownloadKey`` share one transfer.
    ///   - delivery: where `handler` runs.
    ///   - handler: gets the events in order and exactly one completion, also when the
    ///     token is cancelled (then with ``DownloadError/cancelled``).
    /// - Returns: a token whose ``DownloadToken/cancel()`` removes this subscriber only;
    ///   the transfer stops when its last subscriber leaves.
    @discardableResult
    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken
}

/// A subscriber's hold on a download. Cancelling removes this subscriber only.
public final class DownloadToken: Cancellable, Hashable, CustomStringConvertible {
    /// The download this subscriber joined.
    public let key: DownloadKey
    public let subscription: SubscriptionToken
    private let onCancel: @Sendable () -> Void

    public init(key: DownloadKey, subscription: SubscriptionToken, onCancel: @escaping @Sendable () -> Void) {
        self.key = key
        self.subscription = subscription
        self.onCancel = onCancel
    }

    /// Completes this subscriber with ``DownloadError/cancelled`` unless it already
    /// completed. Safe from any thread, any number of times.
    public func cancel() { onCancel() }

    public static func == (lhs: DownloadToken, rhs: DownloadToken) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "DownloadToken(\(subscription.id), \(key))" }
}
