import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// A tier of downloaded bytes on Redis nodes, shared by every server of a fleet: between
/// each server's disk cache and the origin. Give it to the manager as
/// `ImageManager.Configuration.sharedCache`; a load then reads its disk cache, then this
/// tier, then the origin, stores what the origin sent here (with its HTTP metadata), and
/// copies a hit here to its disk cache.
///
/// ```swift
/// let shared = try SharedCache(nodes: "redis://10.0.0.5:6379,redis://10.0.0.6:6379")
/// var configuration = WebImageConfiguration()
/// configuration.manager.sharedCache = shared
/// let manager = ImageManager(configuration: configuration)
/// ```
///
/// - **Placement**: each key lives on one node, chosen by rendezvous hashing of the
///   node's host, port and database; adding a node to N moves about 1/(N+1) of the keys.
/// - **Fleet-wide coalescing**: the first member to miss a key takes a lease on it
///   (`SET lease NX PX`) and fetches; the others poll for the value and get it once it is
///   stored. When the lease expires unreleased (its holder died), the next member to poll
///   takes it over, so a dead holder delays the others by ``Configuration/leaseDuration``.
/// - **Faults are misses**: a node that refuses connections, does not answer within
///   ``Configuration/commandTimeout``, is out of memory or holds a value that is not a
///   whole entry (checked by length and a 64-bit checksum) is skipped for that load,
///   which goes to the origin; the node is tried again after a backoff.
/// - **Threads**: hiredis runs on the cache's own thread (an event loop over the nodes'
///   sockets, commands pipelined per node); no thread of Swift's cooperative pool ever
///   waits on a node. The synchronous `DataCaching` methods block their caller.
/// - **Not supported**: TLS to the nodes (Debian 12's hiredis has none), Redis Cluster's
///   slot redirections (list the nodes instead), values split over several keys (an
///   entry above ``Configuration/maximumEntrySize`` is not stored).
public final class SharedCache: SharedDataCaching {
    public let configuration: Configuration
    /// Which node holds which key.
    public let placement: RendezvousHashing
    let client: RedisClient
    /// The leases this process holds, with the token that proves each is its own.
    let leases = Locked<[CacheKey: String]>([:])
    /// Lookups now waiting for a lease another member holds, and who is told when that
    /// number changes (see ``observeLeaseWaits(_:)``).
    private let leaseWaits = Atomic<Int>(0)
    private let leaseWaitObservers = MonitorList<@Sendable () -> Void>()

    /// A tier over `configuration.nodes`. No connection is made until the first command.
    ///
    /// - Throws: ``SharedCacheError`` when no node is listed, two are the same, or a
    ///   duration is not positive.
    public init(configuration: Configuration) throws(SharedCacheError) {
        guard !configuration.nodes.isEmpty else { throw SharedCacheError(.invalidConfiguration, "no node is listed") }
        let identities = configuration.nodes.map(\.ringIdentity)
        guard Set(identities).count == identities.count else {
            throw SharedCacheError(.invalidConfiguration, "a node is listed twice")
        }
        for (name, value) in [
            ("commandTimeout", configuration.commandTimeout), ("connectTimeout", configuration.connectTimeout),
            ("initialBackoff", configuration.initialBackoff), ("leaseDuration", configuration.leaseDuration),
            ("pollInterval", configuration.pollInterval), ("timeToLive", configuration.timeToLive),
        ] where value <= .zero {
            throw SharedCacheError(.invalidConfiguration, "\(name) must be positive")
        }
        self.configuration = configuration
        placement = RendezvousHashing(identities: identities)
        client = RedisClient(
            nodes: configuration.nodes,
            timeouts: .init(command: configuration.commandTimeout, connect: configuration.connectTimeout),
            backoff: (configuration.initialBackoff, configuration.maximumBackoff))
    }

    /// A tier over the comma-separated `redis://` URLs in `nodes`, with the default rules.
    public convenience init(nodes: String) throws(SharedCacheError) {
        try self.init(configuration: Configuration(nodes: try RedisNodeAddress.list(nodes)))
    }

    /// Closes the connections and stops the cache's thread; every later command is a miss.
    /// The last reference going does the same.
    public func shutdown() {
        client.shutdown()
    }

    /// The node that holds `key`.
    public func node(for key: CacheKey) -> RedisNodeAddress {
        configuration.nodes[nodeIndex(for: key)]
    }

    /// How many lookups of this cache wait now for a lease another member holds: they
    /// found the value absent and the lease taken, and poll until it is stored, released
    /// or expired.
    package var leaseWaitCount: Int { leaseWaits.load(ordering: .acquiring) }

    /// Calls `changed` (on the lookup's task) each time ``leaseWaitCount`` changes: a
    /// test's signal that another member's lookup waits for the lease, which it can then
    /// store or release, instead of sleeping for a guess of when that happens. Remove the
    /// registration to stop.
    package func observeLeaseWaits(_ changed: @escaping @Sendable () -> Void) -> EventMonitorRegistration {
        leaseWaitObservers.add(changed, delivery: .immediate)
    }

    /// Counts a lookup in or out of the lease waits, and tells the observers.
    func countLeaseWait(_ change: Int) {
        leaseWaits.add(change, ordering: .acquiringAndReleasing)
        leaseWaitObservers.emit { $0() }
    }

    func nodeIndex(for key: CacheKey) -> Int {
        placement.node(for: key.string) ?? 0
    }

    /// The key of the entry's value.
    func valueKey(_ key: CacheKey) -> String { configuration.keyPrefix + "e:" + key.string }
    /// The key of the entry's lease.
    func leaseKey(_ key: CacheKey) -> String { configuration.keyPrefix + "l:" + key.string }
}
