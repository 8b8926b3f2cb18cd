import WebImageConcurrency
import WebImageResources

/// The limits of a ``MemoryCache``.
///
/// ```swift
/// // 256 MiB of decoded images, at most 1000 of them, none older than 10 minutes.
/// let cache = MemoryCache<CacheKey, DecodedImage>(configuration: .init(
///     costLimit: 256 << 20, countLimit: 1000, timeToLive: .seconds(600)))
/// ```
///
/// The cache is split into shards by the key's hash, and **each limit is split evenly
/// across the shards** (so the eviction order is kept per shard, an approximation of one
/// order over the whole cache).
/// A value costlier than one shard's share (`costLimit / shardCount`) is not stored; the
/// automatic shard count keeps that share at least 64 MiB, enough for a 4000x3000 RGBA
/// photo (48 MB).
public struct MemoryCacheConfiguration: Sendable, Hashable {
    /// The most the costs of the values held may add up to (bytes, for images).
    /// Default: ``defaultCostLimit``.
    public var costLimit: Int
    /// The most values held. Default: `Int.max`, no limit.
    public var countLimit: Int
    /// How long a value stays readable after it was stored; an older one reads as a
    /// miss and is dropped. `nil` (the default): values never expire.
    public var timeToLive: Duration?
    /// How many independent shards, each behind its own lock, the cache is split into;
    /// rounded up to a power of two, at most 64. `nil` (the default): automatic, see
    /// ``automaticShardCount(costLimit:)``. Use 1 for one eviction order over the whole
    /// cache.
    public var shardCount: Int?

    public init(costLimit: Int = Self.defaultCostLimit, countLimit: Int = .max, timeToLive: Duration? = nil, shardCount: Int? = nil) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.timeToLive = timeToLive
        self.shardCount = shardCount
    }

    /// An eighth of the memory available to the process, at most 512 MiB.
    ///
    /// "Available" is `ProcessResources.memoryLimit` (WebImageConcurrency): the physical
    /// memory or, when smaller, the cgroup limit of the container the process runs in
    /// (v2 `memory.max` or v1 `memory.limit_in_bytes`, the smallest up its cgroup's
    /// tree), so that a server in a 1 GiB
    /// container gets 128 MiB, not an eighth of the host. The decoding memory budget
    /// (`MemoryBudget.shared`) is a quarter of the same limit.
    public static let defaultCostLimit: Int = min(ProcessResources.current.memoryLimit / 8, 512 << 20)

    /// The shard count used when ``shardCount`` is `nil`: 8 shards (two threads hitting
    /// the cache rarely meet on the same lock), fewer when that would make a shard's
    /// share of `costLimit` smaller than 64 MiB, and 1 for a cost limit under 128 MiB.
    public static func automaticShardCount(costLimit: Int) -> Int {
        var shards = 8
        while shards > 1, costLimit / shards < 64 << 20 { shards /= 2 }
        return shards
    }

    /// The number of shards a cache with this configuration has.
    public var effectiveShardCount: Int {
        let requested = min(max(shardCount ?? Self.automaticShardCount(costLimit: costLimit), 1), 64)
        var shards = 1
        while shards < requested { shards *= 2 }
        return shards
    }

    /// `total` split into `parts` shares that add up to it exactly (the first
    /// `total % parts` shares get one more).
    static func share(of total: Int, part: Int, of parts: Int) -> Int {
        let total = max(0, total)
        return total / parts + (part < total % parts ? 1 : 0)
    }
}
