import Foundation
import WebImageConcurrency
import WebImageCore
import WebImageHTTP
import WebImageResources

extension ImageManager {
    /// What every load of one manager shares.
    public struct Configuration: Sendable {
        /// Makes the resource's cache key from the URL, for example to drop a signature
        /// query that changes on every request. `nil`: the URL's absolute string.
        public var cacheKeyFilter: (@Sendable (URL) -> String)?
        /// How long a permanently failed URL is not fetched again (10 minutes by default).
        public var failedURLRetryInterval: Duration
        /// Told when the disk cache could not keep a download's bytes (a full disk, an
        /// unwritable directory). The load still succeeds; only the cache entry is lost.
        public var cacheStoreFailureHandler: (@Sendable (CacheError, CacheKey) -> Void)?
        /// Told of every load's events, each where its ``ImageLoadEventMonitor/delivery``
        /// says; more can be added while running (``ImageManager/addEventMonitor(_:delivery:)``).
        public var eventMonitors: [any ImageLoadEventMonitor]
        /// Opt-in: downloads that failed because the network was down wait for it and are
        /// tried again, and the queue may pause while it is down (see ``NetworkRecovery``).
        /// `nil` (the default): failures complete at once, whatever the network.
        public var networkRecovery: NetworkRecovery? = nil
        /// How loads use the disk cache (see ``CachePolicy``); a load's context may
        /// choose another. Default: ``CachePolicy/protocol``, HTTP's rules.
        public var cachePolicy: CachePolicy = .protocol
        /// The rules ``CachePolicy/protocol`` follows: whether the cache is shared (a
        /// server's, serving many users: `private` responses are then not stored, and
        /// `s-maxage` applies) and the heuristic freshness. Default: a private cache,
        /// heuristic 10 % of the time since `Last-Modified`, at most one day.
        public var cacheRules = HTTPCacheRules()
        /// Whether decoded images leave the memory cache when their response stops being
        /// fresh (under ``CachePolicy/protocol``): a load after that goes to the disk
        /// cache and revalidates. Off by default: an app's memory cache is short-lived;
        /// a long-running server should turn it on, or it serves an image from memory
        /// forever. With it on, a response that is stale or `no-cache` on arrival is not
        /// kept in memory at all.
        public var memoryCacheFollowsFreshness = false
        /// Where loads run: their disk cache reads, decoding and transforming, and the
        /// awaits between them. Default: `WorkerPool.shared`, threads the library owns,
        /// as many as the cores the process may use (the cgroup CPU quota read), so large
        /// decodes never hold Swift's cooperative pool, which runs the application's own
        /// tasks (on two cores, two decodes there would stall every request handler). A
        /// load's priority orders its work on the pool. `nil`: the cooperative pool.
        public var executor: (any TaskExecutor)? = WorkerPool.shared
        /// Bounds the bytes of pixels being decoded and transformed at once: a load
        /// reserves its decode's estimated peak (`PreparedImageDecode.estimatedMemory`,
        /// from the headers the decode then reads, parsed once) before decoding, and
        /// gives it back once every load sharing the run has the image: an async caller
        /// as its call returns, a handler when it has
        /// returned (on its delivery's queue, for a queued delivery). Loads over the
        /// budget wait, highest priority first and then in order, and may be cancelled
        /// while they wait. Default: `MemoryBudget.shared`, a quarter of the memory the
        /// process may use (the cgroup limit, else physical memory), at least 64 MiB.
        /// `nil`: no bound. A decoded image the memory cache or the caller keeps after
        /// that is no longer counted (a response the caller keeps holds none of the
        /// budget): the memory cache has its own limit.
        public var memoryBudget: MemoryBudget? = .shared
        /// While loads wait for ``memoryBudget``, the downloader starts no new download
        /// (those running finish; when no load waits any more, the queue goes on in its
        /// own order). A waiting load keeps its body in memory, so without this a burst of
        /// large images downloads every body while the decodes go a few at a time, and the
        /// bodies come on top of the budget. It applies to the manager's own downloader
        /// when it can hold its starts (`DownloadStartHolding`, as WebImageOperations'
        /// `ImageDownloader` can), not to a request's own `ImageLoadContext.downloader`;
        /// loads that skip decoding wait with the rest. A budget shared with other users
        /// holds the downloads while any of its users wait. Default: on.
        public var holdsDownloadsWhileDecodesWait = true
        /// A cache tier shared by a fleet of servers (`SharedCache` from
        /// WebImageSharedCache, on Redis), read after the disk cache and before the
        /// network. A load that misses its disk cache looks here; a hit usable under the
        /// caching rules is answered with source ``ImageSource/shared`` and copied to the
        /// disk cache; a miss may hold the key's lease while it downloads, so the fleet's
        /// other servers wait for its bytes instead of fetching too. A network response
        /// that may be stored goes to both caches; the load returns once the tier has it
        /// (one round trip), so that the servers waiting for it go on at once. A tier that
        /// fails never fails a load. A fleet serving many users should also set
        /// ``cacheRules`` to a shared cache's (`HTTPCacheRules(isShared: true)`), so that
        /// `private` responses stay out of both. `nil` (the default): no shared tier.
        public var sharedCache: (any SharedDataCaching)? = nil
        /// Opt-in: the images loads make (thumbnails, first frames, transformed images) are
        /// stored encoded in the disk cache and, when the storage says so, the shared tier,
        /// so that a restarted process or another server serves them without decoding the
        /// source (see ``VariantStorage`` and the Manager's "Stored variants" article). A load then looks in
        /// memory, then for its variant on disk and in the tier, then for the source's
        /// bytes, then the network. `nil` (the default): only the source's bytes are
        /// stored, and every thumbnail is decoded again after a restart.
        public var variantStorage: VariantStorage? = nil
        /// Asked, in order, to make the result of ``ImageManager/encodedImage(for:encoder:)``
        /// straight from the source's bytes, without decoding it to RGBA first (see
        /// `ImageTranscoding`); the first that does not decline makes it. Empty here; the
        /// umbrella's `WebImageConfiguration` gives the JPEG-to-JPEG thumbnail's.
        public var transcoders: [any ImageTranscoding] = []
        /// Decides what the disk cache and the shared tier keep of each response the
        /// caching rules let a load store (see ``CachedResponseHandler``); a load's
        /// context may give its own. `nil` (the default): the response as the rules say.
        public var cachedResponseHandler: CachedResponseHandler? = nil
        /// Every load sends and stores cookies, as with ``ImageLoadOptions/handleCookies``
        /// (SDWebImage's `HandleCookies`), in the in-memory jar of the downloader's
        /// transport. Off by default.
        public var handlesCookies = false
        /// The clock the manager's waits run on: the bound of a wait for the network
        /// (``NetworkRecovery/maximumWait``) and the longest a disk write is held back.
        /// Continuous time, or a test's own, so that those waits need no real time.
        package var clock: any Clock<Duration> = ContinuousClock()

        public init(
            cacheKeyFilter: (@Sendable (URL) -> String)? = nil,
            failedURLRetryInterval: Duration = .seconds(600),
            cacheStoreFailureHandler: (@Sendable (CacheError, CacheKey) -> Void)? = nil,
            eventMonitors: [any ImageLoadEventMonitor] = []
        ) {
            self.cacheKeyFilter = cacheKeyFilter
            self.failedURLRetryInterval = failedURLRetryInterval
            self.cacheStoreFailureHandler = cacheStoreFailureHandler
            self.eventMonitors = eventMonitors
        }
    }
}
