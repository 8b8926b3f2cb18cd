/// The events of one download subscriber: progress, the body received so far of a
/// progressive download, then exactly one result. A downloader hands bytes only; images
/// are made above it.
// CallbackRegistry's hot paths are prespecialized for exactly these types, by name: a
// change here without one there sends every download event through unspecialized code.
public typealias DownloadEvent = SubscriberEvent<ReceivedBody, DownloadResult, DownloadError>

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

    /// Starts (or joins) the download of `request`, handing its token to `tokenReady`
    /// before the download can send `handler` anything.
    ///
    /// With `.immediate` delivery the events may arrive on the transfer's thread before
    /// `download` returns; a subscriber that pauses or cancels from its own handler needs
    /// the token by then. `tokenReady` runs once, on the calling thread, before this
    /// subscriber's first event. The default implementation calls it after
    /// ``download(_:delivery:handler:)`` returns, which leaves that window open:
    /// downloaders that start transfers at once should implement this.
    @discardableResult
    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken
}

extension ImageDownloading {
    @discardableResult
    public func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        let token = download(request, delivery: delivery, handler: handler)
        tokenReady(token)
        return token
    }
}

/// A subscriber's hold on a download. Cancelling removes this subscriber only; pausing
/// pauses the shared transfer only when every subscriber has paused it.
public final class DownloadToken: Cancellable, Hashable, CustomStringConvertible {
    /// The download this subscriber joined.
    public let key: DownloadKey
    public let subscription: SubscriptionToken
    private let onCancel: @Sendable () -> Void
    private let onCancelKeepingResumableData: (@Sendable () -> Void)?
    private let onPauseChange: (@Sendable (_ paused: Bool) -> Void)?
    private let onPriorityRaise: (@Sendable (DownloadPriority) -> Void)?

    /// For downloaders: `onCancel` runs at every ``cancel()``, and
    /// `onCancelKeepingResumableData` at every ``cancel(keepingResumableData:)`` that
    /// keeps (`onCancel` then, when `nil`: the downloader cannot resume); `onPauseChange`
    /// runs on the calling thread at every ``pause()`` and ``resume()``, `nil` when the
    /// downloader cannot pause; `onPriorityRaise` at every ``raisePriority(to:)``, `nil`
    /// when the downloader cannot reorder its queue.
    public init(
        key: DownloadKey, subscription: SubscriptionToken, onCancel: @escaping @Sendable () -> Void,
        onCancelKeepingResumableData: (@Sendable () -> Void)? = nil,
        onPauseChange: (@Sendable (_ paused: Bool) -> Void)? = nil,
        onPriorityRaise: (@Sendable (DownloadPriority) -> Void)? = nil
    ) {
        self.key = key
        self.subscription = subscription
        self.onCancel = onCancel
        self.onCancelKeepingResumableData = onCancelKeepingResumableData
        self.onPauseChange = onPauseChange
        self.onPriorityRaise = onPriorityRaise
    }

    /// Moves the download up to `priority` while it waits in the downloader's queue (a
    /// caller that joined later wants it sooner). Never lowers it; does nothing once the
    /// download runs, or when the downloader cannot reorder. Safe from any thread.
    public func raisePriority(to priority: DownloadPriority) { onPriorityRaise?(priority) }

    /// Completes this subscriber with ``DownloadError/cancelled`` unless it already
    /// completed. Safe from any thread, any number of times. When this stops the
    /// download (no other subscriber is left), what it received is dropped.
    public func cancel() { onCancel() }

    /// ``cancel()``, and when this stops the download, asks the downloader to keep what
    /// it received, with its strong validator, so that the next download of the resource
    /// asks only for the rest (`Range` with `If-Range`). A downloader that cannot resume
    /// drops it as ``cancel()`` does; so does any, when the download is shared and
    /// another subscriber is left (it goes on) or when nothing resumable arrived yet.
    /// Safe from any thread.
    public func cancel(keepingResumableData: Bool) {
        guard keepingResumableData, let onCancelKeepingResumableData else { return cancel() }
        onCancelKeepingResumableData()
    }

    /// Says this subscriber can wait: the download pauses (no byte arrives, its paused
    /// time costs none of its timeouts, nothing is lost) once every subscriber still
    /// present has paused it. So one load pausing never stops the bytes another load of
    /// the same resource waits for; a subscriber that leaves no longer counts, and one
    /// that joins without pausing resumes the download. A download paused before it got
    /// a queue slot leaves the queue until resumed. Safe from any thread, any number of
    /// times; does nothing once the download ended. Cancelling works while paused.
    public func pause() { onPauseChange?(true) }

    /// Withdraws this subscriber's ``pause()``: the download resumes (if it was paused),
    /// from where it stopped. Safe from any thread, any number of times.
    public func resume() { onPauseChange?(false) }

    public static func == (lhs: DownloadToken, rhs: DownloadToken) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "DownloadToken(\(subscription.id), \(key))" }
}
