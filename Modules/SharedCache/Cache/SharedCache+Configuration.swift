import WebImageCore

extension SharedCache {
    /// The nodes and the rules of the tier. The defaults suit nodes on the same network
    /// as the servers.
    public struct Configuration: Sendable {
        /// The nodes, each holding the keys rendezvous hashing gives it (see
        /// ``RendezvousHashing``). At least one.
        public var nodes: [RedisNodeAddress]
        /// Put before every key, so that the tier can share a database with other data and
        /// ``SharedCache/removeAll()`` removes only its own keys. Default `webimage:`.
        public var keyPrefix = "webimage:"
        /// How long an entry stays when its response does not say: the TTL set on each
        /// value (`PX`). A response with a `max-age` and no validator (`ETag`,
        /// `Last-Modified`) is kept only while fresh, since it cannot be revalidated after.
        /// Default one day.
        public var timeToLive: Duration = .seconds(86_400)
        /// The longest a command waits for its reply; past it the node's connection is
        /// closed, the node is skipped for its backoff, and the load goes on without the
        /// tier. Default 250 ms.
        public var commandTimeout: Duration = .milliseconds(250)
        /// The longest a connection takes to open. Default 1 s.
        public var connectTimeout: Duration = .seconds(1)
        /// How long a failed node is skipped: `initialBackoff`, doubled for each failure in
        /// a row up to `maximumBackoff`; then the next command tries it again.
        /// Defaults 500 ms and 30 s.
        public var initialBackoff: Duration = .milliseconds(500)
        public var maximumBackoff: Duration = .seconds(30)
        /// Whether a miss takes the key's lease so that the fleet's other members wait for
        /// this one's fetch (see `SharedDataCaching`). Default on.
        public var coalescesMisses = true
        /// How long a lease lasts (`SET key NX PX`), and so about the longest another
        /// member waits before fetching itself: a member that took a lease and died holds
        /// the others up this long, then one of them takes the lease over. A waiter gives
        /// up (and fetches without a lease) a quarter of a lease plus 100 ms after that.
        /// Default 5 s.
        public var leaseDuration: Duration = .seconds(5)
        /// How often a waiting member looks for the value: first after `pollInterval`,
        /// then half as often again each time, up to 100 ms. Default 5 ms.
        public var pollInterval: Duration = .milliseconds(5)
        /// Entries larger than this (body and metadata) are not stored: a store throws
        /// `CacheError.entryTooLarge` and the lease is given up. Default 8 MiB, well
        /// under Redis's 512 MB value limit and small enough not to stall a node.
        public var maximumEntrySize = 8 << 20

        /// The nodes, as `redis://` URLs.
        public init(nodes: [RedisNodeAddress]) {
            self.nodes = nodes
        }
    }
}
