import Foundation
import WebImageCore

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
