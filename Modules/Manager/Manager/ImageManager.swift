import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Loads images: the SDWebImageManager role. One load runs
/// key -> failed-URL set -> memory -> disk -> download -> decode -> transform -> store
/// -> deliver, and reports where the image came from.
///
/// It sees the other modules only through Core's protocols; the `WebImage` umbrella
/// builds one with the defaults (libcurl transport, PNG/JPEG/GIF/WebP/AVIF decoders, memory and
/// disk caches):
///
/// ```swift
/// let manager = ImageManager(configuration: WebImageConfiguration())   // import WebImage
/// let image = try await manager.image(for: url)
/// ```
///
/// Sharing work: loads of the same decoded variant (same ``ImageRequest/imageKey`` and
/// same behaviour options) share one pipeline run, so the bytes are decoded once however
/// many wait; different variants of one URL share the download (the downloader
/// coalesces) and decode once each.
///
/// Delivery: every load gets progress, partial images (with
/// ``ImageLoadOptions/progressiveLoad``) and exactly one result, in that order, through
/// the `CallbackDelivery` it asked for. A memory hit completes before `loadImage`
/// returns when the delivery is `.immediate`.
///
/// Cancellation: a cancelled load completes with ``ImageLoadError/cancelled`` at once and
/// gets nothing more. When the last load sharing a run leaves, the run stops at its
/// current stage: the disk read's result is dropped, the download is cancelled (unless
/// another load shares it), no decode, transform or store starts.
public final class ImageManager: Sendable {
    /// The callback registry type the manager fans events out with (`CallbackRegistry()`
    /// from WebImageCallbackRegistry).
    public typealias Registry = any CallbackRegistering<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>

    public let configuration: Configuration
    public let downloader: any ImageDownloading
    public let decoders: any ImageDecoderProviding
    public let memoryCache: (any MemoryCaching<CacheKey, DecodedImage>)?
    public let diskCache: (any DataCaching)?
    /// URLs not fetched again for a while because they failed permanently.
    public let failedURLs: FailedURLSet
    /// Every load started through this manager, as a group to wait for: ``ImageLoadGroup/wait()``
    /// returns once none is pending. A memory hit delivered `.immediate`ly has completed
    /// before its call returns and never counts.
    public let loads = ImageLoadGroup()
    private let registry: Registry
    private let individualLoads = Atomic<UInt64>(1)
    let writes: DiskWriteBehind
    /// The configuration's load monitors, then those added while running.
    private let monitors = MonitorList<any ImageLoadEventMonitor>()
    private let loadIDs = Atomic<UInt64>(1)
    private let queueSuspension: NetworkQueueSuspension?
    private let backpressure: BudgetBackpressure?
    /// The load runs under way, for pause and resume (see ImageLoadToken).
    private let runs: ImageLoadTask.Runs
    /// The `stale-while-revalidate` refreshes under way.
    private let revalidations = BackgroundRevalidations()
    /// Set by ``shutdown(gracePeriod:)``: new loads fail with ``ImageLoadError/shutdown``.
    private let isShuttingDown = Atomic<Bool>(false)
    /// Told when ``shutdown(gracePeriod:)`` is first called.
    private let shutdownObservers = MonitorList<@Sendable () -> Void>()
    /// How to stop the parts this manager made for itself (``adoptPart(stoppedBy:)``),
    /// run at the end of ``shutdown(gracePeriod:)``.
    private let ownedParts = Locked<[@Sendable () async -> Void]>([])

    /// A manager over the given parts; leave a cache out to go without it.
    public init(
        downloader: any ImageDownloading,
        decoders: any ImageDecoderProviding,
        registry: Registry,
        memoryCache: (any MemoryCaching<CacheKey, DecodedImage>)?,
        diskCache: (any DataCaching)?,
        configuration: Configuration = .init()
    ) {
        self.downloader = downloader
        self.decoders = decoders
        self.registry = registry
        self.runs = ImageLoadTask.Runs(registry: registry)
        self.memoryCache = memoryCache
        self.diskCache = diskCache
        self.configuration = configuration
        self.failedURLs = FailedURLSet(retryInterval: configuration.failedURLRetryInterval)
        self.writes = DiskWriteBehind(clock: configuration.clock, storeFailed: configuration.cacheStoreFailureHandler ?? { _, _ in })
        self.queueSuspension = NetworkQueueSuspension(recovery: configuration.networkRecovery, downloader: downloader)
        self.backpressure = BudgetBackpressure(
            budget: configuration.memoryBudget, enabled: configuration.holdsDownloadsWhileDecodesWait, downloader: downloader)
        for monitor in configuration.eventMonitors { monitors.add(monitor, delivery: monitor.delivery) }
    }

    /// Stops the manager gracefully, for a server's shutdown: new loads fail at once with
    /// ``ImageLoadError/shutdown``; the loads under way get `gracePeriod` to finish, then
    /// the rest are cancelled (their callers get `.cancelled`); then the disk cache's
    /// waiting writes are written (``flushPendingWrites()``). Returns when all of that is
    /// done. Calling it again waits the same way. The caches, downloader and transport
    /// passed to ``init(downloader:decoders:registry:memoryCache:diskCache:configuration:)``
    /// are left as they are: other managers may share them. A manager the `WebImage`
    /// umbrella composed (`ImageManager(configuration:)`) made its transport itself, and
    /// shuts it down last.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        if !isShuttingDown.exchange(true, ordering: .relaxed) { shutdownObservers.emit { $0() } }
        let runs = self.runs
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await runs.whenEmpty() }
            group.addTask { try? await Task.sleep(for: gracePeriod) }
            await group.next()
            group.cancelAll()
        }
        for run in runs.all { run.cancelForShutdown() }
        await runs.whenEmpty()
        await flushPendingWrites()
        for stop in ownedParts.withLock({ $0 }) { await stop() }
    }

    /// Hands the manager a part it made for itself (the umbrella's transport), which
    /// ``shutdown(gracePeriod:)`` stops with `stop` once every load has ended.
    package func adoptPart(stoppedBy stop: @escaping @Sendable () async -> Void) {
        ownedParts.withLock { $0.append(stop) }
    }

    /// Whether ``shutdown(gracePeriod:)`` was called: no new load is taken.
    public var isShutdown: Bool { isShuttingDown.load(ordering: .relaxed) }

    /// The former name of ``shutdown(gracePeriod:)``.
    @available(*, deprecated, renamed: "shutdown(gracePeriod:)")
    public func shutDown(gracePeriod: Duration = .seconds(10)) async { await shutdown(gracePeriod: gracePeriod) }

    /// The former name of ``isShutdown``.
    @available(*, deprecated, renamed: "isShutdown")
    public var isShutDown: Bool { isShutdown }

    /// Loads under way now, counting each URL and options once however many callers
    /// share it (a gauge's reading).
    public var activeLoadCount: Int { runs.count }

    /// The load runs under way now, each with its URL, stage, progress and the loads
    /// sharing it (AFNetworking's `tasks`; the downloads below them are the downloader's
    /// `runningDownloads`). A snapshot, in no particular order.
    public var runningLoads: [ImageLoadSnapshot] {
        runs.all.map { $0.snapshot(loads: registry.subscriberCount(for: $0.key)) }
    }

    /// Calls `began` (on the thread of the first ``shutdown(gracePeriod:)`` call, once
    /// ``isShutdown`` reads true) when the shutdown begins: the signal a test waits for
    /// before it checks that new loads are refused, where a service starts the shutdown
    /// on a task of its own. Remove the registration to stop.
    package func observeShutdown(_ began: @escaping @Sendable () -> Void) -> EventMonitorRegistration {
        shutdownObservers.add(began, delivery: .immediate)
    }

    /// Returns once no load is under way (``activeLoadCount`` is 0; at once when none
    /// is), or once the task is cancelled. A run lets go of its record just after its
    /// callers got their result: a test that needs the count at 0 awaits this.
    package func whenNoLoadIsUnderWay() async {
        await runs.whenEmpty()
    }

    /// Adds a load monitor while the manager runs. It sees the events that happen after
    /// this call returns (a load under way is reported from its next event on), on
    /// `delivery` (the monitor's own ``ImageLoadEventMonitor/delivery`` when `nil`), until
    /// the registration is removed.
    @discardableResult
    public func addEventMonitor(_ monitor: any ImageLoadEventMonitor, delivery: CallbackDelivery? = nil) -> EventMonitorRegistration {
        monitors.add(monitor, delivery: delivery ?? monitor.delivery)
    }

    /// Writes every download still waiting for the disk cache, and returns when they are
    /// written. Call it before a process exits, or when a test needs the files.
    public func flushPendingWrites() async {
        await writes.flush()
    }

    /// Starts a load; `handler` gets its events on `delivery`.
    ///
    /// - Returns: a token that cancels this load only (others sharing its work go on).
    @discardableResult
    public func loadImage(
        with request: ImageRequest, delivery: CallbackDelivery = .immediate,
        handler: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> ImageLoadToken {
        loadImage(with: request, delivery: delivery, takesProgress: true, handler: handler)
    }

    /// ``loadImage(with:delivery:handler:)`` as one of `group`'s loads: the group counts
    /// it pending until `handler` has returned from its completion.
    @discardableResult
    public func loadImage(
        with request: ImageRequest, group: ImageLoadGroup, delivery: CallbackDelivery = .immediate,
        handler: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> ImageLoadToken {
        group.enter()
        return loadImage(with: request, delivery: delivery, takesProgress: true, handler: group.leaving(after: handler))
    }

    /// ``loadImage(with:delivery:handler:)`` for a caller that says whether `handler`
    /// takes progress events (see `subscribe`).
    func loadImage(
        with request: ImageRequest, delivery: CallbackDelivery, takesProgress: Bool,
        handler: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> ImageLoadToken {
        let request = request.keyed(by: configuration.cacheKeyFilter)
        if let early = earlyResult(for: request) {
            if case .immediate = delivery {
                handler(.completed(early))
            } else {
                // Pending until the handler has run where it was asked to.
                loads.enter()
                delivery.run { [loads] in
                    handler(.completed(early))
                    loads.leave()
                }
            }
            return ImageLoadToken(key: nil, onCancel: nil)
        }
        return subscribe(request, delivery: delivery, takesProgress: takesProgress, handler: handler)
    }

    /// The decoded image for `request` if the memory cache holds it: no I/O, no decode,
    /// on the calling thread.
    public func cachedImage(for request: ImageRequest) -> DecodedImage? {
        guard configuration.cacheKeyFilter == nil else {
            let keyed = request.keyed(by: configuration.cacheKeyFilter)
            return memoryCache(for: keyed)?.value(forKey: keyed.imageKey)
        }
        return memoryCache(for: request)?.value(forKey: request.imageKey)
    }

    /// Removes `request`'s decoded image from memory, and its bytes and its stored variant
    /// (``Configuration/variantStorage``) from disk.
    public func removeCached(_ request: ImageRequest) {
        let request = request.keyed(by: configuration.cacheKeyFilter)
        memoryCache(for: request)?.removeValue(forKey: request.imageKey)
        // Whatever the options: the bytes are gone from the disk the request would use.
        (request.context.diskCache ?? diskCache)?.removeResponse(forKey: request.dataKey)
        if let variant = LoadVariant(storage: configuration.variantStorage, request: request) {
            (request.context.diskCache ?? diskCache)?.removeResponse(forKey: variant.key.cacheKey)
        }
    }

    // MARK: Inside

    /// What a load can be answered with at once: a refusal by its own URL policy (before
    /// any cache answers it), a recent permanent failure, or a memory hit; the monitors
    /// are told.
    func earlyResult(for request: ImageRequest) -> Result<ImageResponse, ImageLoadError>? {
        do throws(ImageLoadError) {
            guard let image = try answeredAtOnce(request) else { return nil }
            return .success(ImageResponse(image: image, data: nil, source: .memory, request: request))
        } catch {
            return .failure(error)
        }
    }

    /// ``earlyResult(for:)`` as the async API uses it: a memory hit's image alone, `nil`
    /// when the load has to run, or the error it fails with at once. The monitors are
    /// told either way; a response is made for them only when there are some.
    func answeredAtOnce(_ request: ImageRequest) throws(ImageLoadError) -> DecodedImage? {
        do throws(ImageLoadError) {
            guard let image = try memoryHit(for: request) else { return nil }
            if !monitors.isEmpty {
                reportAnsweredAtOnce(request, .success(ImageResponse(image: image, data: nil, source: .memory, request: request)))
            }
            return image
        } catch {
            reportAnsweredAtOnce(request, .failure(error))
            throw error
        }
    }

    /// The checks behind ``answeredAtOnce(_:)``, without telling the monitors. A memory
    /// hit returns the image alone: a response (the request, room for the transfer's
    /// metadata) costs more to make and drop than the hit itself.
    func memoryHit(for request: ImageRequest) throws(ImageLoadError) -> DecodedImage? {
        if isShuttingDown.load(ordering: .relaxed) { throw .shutdown }
        if let policy = request.context.urlPolicy, let violation = policy.violation(for: request.url) {
            var refusal = TransportError(.refusedByPolicy, violation.description, url: request.url)
            refusal.policyViolation = violation
            throw .download(.transport(refusal))
        }
        let options = request.options
        if !options.contains(.retryFailed), failedURLs.contains(request.dataKey) {
            throw .failedRecently(request.url)
        }
        guard ImageLoadTask.StateMachine.readsMemory(options) else { return nil }
        return memoryCache(for: request)?.value(forKey: request.imageKey)
    }

    /// Tells the monitors of a load answered before it joined any run (a memory hit or a
    /// recent failure). With no monitor, one atomic load: the memory hit stays cheap.
    func reportAnsweredAtOnce(_ request: ImageRequest, _ result: Result<ImageResponse, ImageLoadError>) {
        guard !monitors.isEmpty else { return }
        let events = reporter(for: request)
        events.started()
        events.ended(result)
    }

    private func reporter(for request: ImageRequest) -> LoadEventReporter {
        LoadEventReporter(monitors: monitors, load: ImageLoadInfo(id: loadIDs.add(1, ordering: .relaxed).oldValue, request: request))
    }

    /// Joins the run for `request`'s key, starting it when this is the first load.
    /// `handler` gets the result ``ImageResponse/handedOver`` unless it is the manager's own
    /// and `keepsBudgetReservation` (the async API, which hands it over as it resumes).
    ///
    /// A run publishes its download's progress only once a load that `takesProgress`
    /// joined it: the async API and the prefetcher do not, and their loads then cost the
    /// transport's thread no lookup and no post per chunk of the body. A load that joins
    /// a run under way gets its progress from the next chunk on, as it would anyway.
    func subscribe(
        _ request: ImageRequest, delivery: CallbackDelivery, takesProgress: Bool, keepsBudgetReservation: Bool = false,
        handler: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> ImageLoadToken {
        let request = configuration.handlesCookies ? request.handlingCookies() : request
        let individual = request.context.isIndividual ? individualLoads.add(1, ordering: .relaxed).oldValue : 0
        let key = ImageLoadKey(request: request, individual: individual)
        let events = reporter(for: request)
        events.started()
        let loads = self.loads
        loads.enter()
        // The end is reported from the subscriber's own completion, so a cancelled load
        // is reported as cancelled even while the run it shared goes on.
        let reportingHandler: @Sendable (ImageLoadEvent) -> Void = { event in
            guard case .completed(let result) = event else { return handler(event) }
            events.ended(result)
            let heard = result.map { $0.heard(byLoad: events.load.id, keepingReservation: keepsBudgetReservation) }
            // The budget's bytes stay reserved while the handler runs, by `event`, which
            // the optimiser may otherwise release as soon as the copy is made.
            withExtendedLifetime(event) { handler(.completed(heard)) }
            loads.leave()
        }
        let runs = self.runs
        let priority = request.options.queuePriority
        let membership = runs.join(
            key, priority: priority, delivery: delivery,
            makeRun: { ImageLoadTask(key: key, request: request, stages: stages(for: request, events: events), runs: runs) },
            handler: reportingHandler)
        if takesProgress { membership.run?.takesProgress() }
        runs.begin(membership, priority: priority)
        return ImageLoadToken(
            key: key,
            onCancel: { [weak runs] keepingResumableData in
                runs?.leave(membership, keepingResumableData: keepingResumableData, failure: .cancelled)
            },
            onPauseChange: { [weak runs] paused in runs?.setPaused(membership, paused) })
    }

    private func stages(for request: ImageRequest, events: LoadEventReporter) -> LoadStages {
        let context = request.context
        return LoadStages(
            memory: memoryCache(for: request),
            disk: diskCache(for: request),
            shared: sharedCache(for: request),
            downloader: context.downloader ?? downloader,
            recovery: configuration.networkRecovery,
            clock: configuration.clock,
            decoders: decoders,
            failedURLs: failedURLs,
            writes: writes,
            events: events,
            caching: LoadCaching(
                policy: context.cachePolicy ?? configuration.cachePolicy, rules: configuration.cacheRules,
                memoryFollowsFreshness: configuration.memoryCacheFollowsFreshness,
                keeps: context.cachedResponseHandler ?? configuration.cachedResponseHandler),
            revalidations: revalidations,
            executor: configuration.executor,
            memoryBudget: configuration.memoryBudget,
            variant: LoadVariant(storage: configuration.variantStorage, request: request))
    }
}
