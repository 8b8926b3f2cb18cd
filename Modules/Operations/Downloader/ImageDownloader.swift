import Synchronization
import WebImageConcurrency
import WebImageCore

/// Turns download requests into bytes (SDWebImage's downloader, for Swift 6 on Linux):
/// identical requests share one transfer, transfers wait their turn in a prioritised
/// ``DownloadQueue``, and every subscriber gets exactly one completion.
///
/// It meets the transport and the registry only through Core's protocols; the `WebImage`
/// umbrella composes it with the libcurl transport and the default registry:
///
/// ```swift
/// let downloader = ImageDownloader(transport: CurlTransport(), registry: CallbackRegistry())
/// let result = try await downloader.download(DownloadRequest(url: url))
/// ```
///
/// Coalescing: requests with an equal `DownloadKey` (URL, headers, credential,
/// validators, certificate choice, progressive or not) share one transfer. A request
/// that joins a waiting download with a higher priority raises it. Cancelling a token
/// completes that subscriber with `DownloadError.cancelled` at once; the transfer stops
/// when its last subscriber leaves. Pausing a token pauses the transfer once every
/// subscriber still present has paused it (`DownloadToken.pause()`); the first resume,
/// or a new subscriber, resumes it.
///
/// Resuming: with a `PartialDownloadStore` in ``Configuration/partialDownloads``, a
/// download that breaks off after its body began keeps its bytes and their strong
/// validator, and its retry, or the next download of the resource, asks only for the
/// rest (`Range` with `If-Range`). `DownloadToken.cancel(keepingResumableData:)` keeps
/// them when it stops the download.
///
/// Lifetime: dropping the downloader cancels what only it could have started. While its
/// queue is suspended (``suspend()``) or holds its starts (``holdStarts()``), the
/// downloads waiting to start (for a slot, between two attempts, or paused meanwhile) end
/// with `DownloadError.cancelled`, once for each subscriber, as does a running download
/// that would later wait in that queue for a retry. Every other download goes on to its
/// own end: the running ones, and those waiting for a slot behind them. So
/// `downloader.download(request) { ... }` on a downloader dropped right away completes,
/// as the async `download(_:)` (which keeps the downloader for its call) does;
/// SDWebImage's downloader, by contrast, cancels everything when it goes. The downloads
/// hold the queue and the transport they need; once the last one ends, nothing of the
/// downloader is left, and a token kept after that holds none of it.
public final class ImageDownloader: ImageDownloading {
    public let configuration: Configuration
    /// The queue the downloads wait in: suspend, resume, counts, concurrency.
    public let queue: DownloadQueue
    /// What the downloads travel over (a `CurlTransport` in the default composition, whose
    /// monitors can be added while it runs).
    public var transport: any Transporting { context.transport }
    let context: DownloaderContext
    /// The configuration's default headers, as changed since (``setDefaultHeader(_:value:)``).
    let liveDefaultHeaders: Locked<HTTPHeaderFields>

    public init(
        transport: any Transporting,
        registry: any CallbackRegistering<DownloadKey, ReceivedBody, DownloadResult, DownloadError>,
        configuration: Configuration = .init()
    ) {
        self.configuration = configuration
        self.liveDefaultHeaders = Locked(configuration.defaultHeaders)
        self.queue = DownloadQueue(
            maximumConcurrentOperations: configuration.maximumConcurrentDownloads, order: configuration.executionOrder)
        let monitors = MonitorList<any DownloadEventMonitor>()
        if let monitor = configuration.eventMonitor { monitors.add(monitor, delivery: .queue(monitor.queue)) }
        self.context = DownloaderContext(
            transport: transport, registry: registry, queue: queue, configuration: configuration, monitors: monitors)
    }

    /// A download waiting to start in a queue that is suspended or holds its starts could
    /// only start once this downloader resumed it: it ends now, cancelled. The others go on.
    deinit {
        context.downloaderWentAway()
        guard context.startsNoMore else { return }
        for operation in context.runs.all { operation.stopUnlessHoldingSlot() }
    }

    /// Adds a monitor while the downloader runs. It sees the events that happen after this
    /// call returns, on `delivery` (the monitor's own `DownloadEventMonitor.queue` when
    /// `nil`), until the registration is removed.
    @discardableResult
    public func addEventMonitor(_ monitor: any DownloadEventMonitor, delivery: CallbackDelivery? = nil) -> EventMonitorRegistration {
        context.monitors.add(monitor, delivery: delivery ?? .queue(monitor.queue))
    }

    @discardableResult
    public func download(
        _ request: DownloadRequest, delivery: CallbackDelivery = .immediate,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        download(request, delivery: delivery, tokenReady: { _ in }, handler: handler)
    }

    /// The token reaches `tokenReady` before the transfer starts, so a pause made from
    /// the handler's first event always finds it. Joining a transfer already under way,
    /// the token is ready just after this subscriber is added: an event on its way
    /// then may arrive first.
    @discardableResult
    public func download(
        _ request: DownloadRequest, delivery: CallbackDelivery = .immediate, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        let request = withDefaultHeaders(request)
        let key = Self.key(for: request)
        let priority = request.effectivePriority
        let runs = context.runs
        let membership = runs.join(
            key, priority: priority, delivery: delivery,
            makeRun: { DownloadOperation(key: key, request: request, context: context) }, handler: handler)
        // A token kept after the end holds none of the downloader's parts.
        let cancel: @Sendable (_ keepingResumableData: Bool) -> Void = { [weak context, weak runs] keeping in
            if runs?.leave(membership, keepingResumableData: keeping, failure: .cancelled) == true {
                context?.notify { $0.download(key, subscriberDidCancel: membership.token) }
            }
        }
        let token = DownloadToken(
            key: key, subscription: membership.token, onCancel: { cancel(false) },
            onCancelKeepingResumableData: { cancel(true) },
            onPauseChange: { [weak runs] paused in runs?.setPaused(membership, paused) },
            onPriorityRaise: { [weak runs] priority in runs?.raisePriority(membership, to: priority) })
        // Announced before the token is handed out: a subscriber that cancels from
        // `tokenReady` stops the operation before it starts, and monitors hear the
        // queueing before the stop.
        if membership.isFirst { context.notify { $0.downloadWasQueued(key, priority: priority) } }
        tokenReady(token)
        runs.begin(membership, priority: priority)
        if !membership.isFirst {
            let subscribers = runs.registry.subscriberCount(for: key)
            context.notify { $0.download(key, didCoalesce: priority, subscribers: subscribers) }
        }
        return token
    }

    /// Stops every download; their subscribers get `DownloadError.cancelled`. Nothing they
    /// received is kept for resuming.
    public func cancelAll() {
        let operations = context.runs.all
        // The waiting ones first: the slot a running one gives back as it stops must find
        // none of them left to start.
        for operation in operations { operation.stopUnlessHoldingSlot() }
        for operation in operations { operation.stop() }
    }

    /// Downloads holding a queue slot now.
    public var currentDownloadCount: Int { queue.runningCount }

    /// Downloads under way or waiting (one per distinct key, however many subscribers).
    public var activeDownloadCount: Int { context.runs.count }

    /// The downloads under way or waiting now, each with its URL, phase, progress and
    /// subscribers (AFNetworking's `tasks`). A snapshot, in no particular order.
    public var runningDownloads: [DownloadSnapshot] {
        let registry = context.registry
        return context.runs.all.map { $0.snapshot(subscribers: registry.subscriberCount(for: $0.key)) }
    }

    /// Stops starting downloads; those running go on.
    public func suspend() { queue.suspend() }

    public func resume() { queue.resume() }

    /// Adds a hold on starting downloads (``DownloadQueue/holdStarts()``); those running
    /// go on.
    public func holdStarts() { queue.holdStarts() }

    /// Releases one hold taken with ``holdStarts()``.
    public func releaseStarts() { queue.releaseStarts() }

    /// The key under which `request` would share a transfer.
    public static func key(for request: DownloadRequest) -> DownloadKey {
        DownloadKey(
            url: request.url, headers: request.headers, credential: request.credential,
            validators: request.options.contains(.revalidate) ? request.validators : nil,
            allowsInvalidCertificates: request.options.contains(.allowInvalidCertificates),
            isProgressive: request.options.contains(.progressive),
            urlPolicy: request.urlPolicy, usesCookies: request.options.contains(.handleCookies))
    }

    private func withDefaultHeaders(_ request: DownloadRequest) -> DownloadRequest {
        var headers = defaultHeaders
        guard !headers.isEmpty else { return request }
        var merged = request
        for name in Set(request.headers.map { $0.name.lowercased() }) { headers.remove(name) }
        for (name, value) in request.headers { headers.add(name, value) }
        merged.headers = headers
        return merged
    }
}
