import Synchronization
import WebImageConcurrency
import WebImageCore

/// A thread-safe cache of values in memory, each with a cost, with cost and count limits
/// and an optional time to live, evicting the least recently used first (with CLOCK's
/// second chance, below).
///
/// The Manager keeps decoded images in one, keyed by `CacheKey` with
/// `DecodedImage.byteCount` as the cost; it holds any `Sendable` value.
///
/// ```swift
/// let cache = MemoryCache<CacheKey, DecodedImage>()
/// cache.setValue(image, forKey: key, cost: image.byteCount)
/// if let hit = cache.value(forKey: key) { show(hit) }
/// ```
///
/// - Get, set and remove are O(1), a store's evictions amortised: one store may pass
///   over every used value of its shard, each paid for by the hit that marked it. A hit
///   allocates nothing, and hashes the key once (a `CacheKey` carries its hash, so that
///   is one integer).
/// - **Eviction**: stores go to the front of their shard's list and eviction takes its
///   tail; a hit only marks its value as used, and a used value at the tail gets a second
///   chance (it moves to the front, unmarked) instead of going. So a value read since it
///   reached the tail stays, as under exact LRU, but among the values read, the order is
///   the order they were stored or moved in, not of the reads. A hit then writes nothing
///   in the shard but its lock (a byte the first time): exact LRU rewrote four links and
///   the list's ends on every hit, memory that other cores hitting the cache had to fetch
///   back: on a 2-core VM two threads hitting one cache got 0.97x to 1.04x one thread's
///   throughput that way, and 1.28x to 1.55x this way.
/// - **Sharded**: keys are spread by hash over ``MemoryCacheConfiguration/effectiveShardCount``
///   independent lists, each behind its own `Mutex`, so threads rarely wait for one
///   another. The limits are split evenly across the shards and the order is kept per
///   shard (use one shard for one order over the whole cache).
/// - A value costlier than a shard's share of the cost limit is not stored and does not
///   replace the current value for its key.
/// - Values that leave the cache (replaced, evicted, expired, removed) are released
///   after the shard's lock is let go, so a large image's deallocation never holds up
///   other threads.
///
/// Thread contract: every method may be called from any thread at once. All of them are
/// synchronous and short (no I/O), so there is no `async` variant.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: MemoryCaching, @unchecked Sendable {
    // `@unchecked Sendable`: the only state besides constants is `shards`, a buffer
    // written once in `init` and freed in `deinit`, whose elements are `Mutex`es.

    /// The limits the cache was made with.
    public let configuration: MemoryCacheConfiguration

    // Internal and `@usableFromInline` so that the hot paths inline and specialise in
    // the client's module. The shards sit in one buffer rather than one object each, so a lookup retains and
    // releases no shard object: two atomic operations saved on every hit, and no
    // reference count shared by the threads that use one shard.
    @usableFromInline let shards: UnsafeMutablePointer<Locked<LRUSegment<Key, Value>>>
    @usableFromInline let shardCount: Int
    @usableFromInline let shardMask: Int
    /// The shard is the top bits of the key's hash (the shard's index uses the low ones).
    @usableFromInline let shardShift: Int
    /// The time to live in the clock's nanoseconds, when there is one.
    @usableFromInline let timeToLive: Int64?
    @usableFromInline let now: @Sendable () -> Int64
    /// Set by the first store with a lifetime of its own: until then a hit without a TTL
    /// reads no clock.
    @usableFromInline let hasExpiringEntries = Atomic<Bool>(false)

    /// Makes an empty cache.
    public convenience init(configuration: MemoryCacheConfiguration = MemoryCacheConfiguration()) {
        self.init(configuration: configuration, clock: MonotonicClock.nanoseconds)
    }

    /// Makes an empty cache whose time to live is measured on `clock` (nanoseconds that
    /// never go back), so tests can move time by hand.
    package init(configuration: MemoryCacheConfiguration, clock: @escaping @Sendable () -> Int64) {
        self.configuration = configuration
        let count = configuration.effectiveShardCount
        shards = .allocate(capacity: count)
        for index in 0..<count {
            (shards + index).initialize(
                to: Locked(
                    LRUSegment(
                        costLimit: MemoryCacheConfiguration.share(of: configuration.costLimit, part: index, of: count),
                        countLimit: MemoryCacheConfiguration.share(of: configuration.countLimit, part: index, of: count)
                    )))
        }
        shardCount = count
        shardMask = count - 1
        shardShift = Int.bitWidth - count.trailingZeroBitCount
        // Saturates: a TTL of centuries is "never", a negative one "at once".
        timeToLive = configuration.timeToLive.map(Self.nanoseconds)
        now = clock
    }

    deinit {
        shards.deinitialize(count: shardCount)
        shards.deallocate()
    }

    // MARK: MemoryCaching

    /// The value for `key`, now marked as used in its shard; `nil` when absent,
    /// or when expired (older than the time to live, or past its own lifetime: then it is
    /// removed).
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let now = mayExpire ? self.now() : nil
        // Holds an expired value until after the unlock, so it is released outside.
        var dropped: Value?
        let hash = key.hashValue
        let value = shards[shardIndex(hash)].withLock { segment in
            segment.value(forKey: key, hash: hash, now: now, dropped: &dropped)
        }
        _ = consume dropped
        return value
    }

    /// Stores `value` with its `cost` (bytes, for images; a negative cost counts as 0),
    /// replacing any value for `key`, at the front of its shard's list; then evicts from
    /// the shard's tail until its limits hold (values used since they reached the tail
    /// get their second chance, and the stored value is never the one evicted). A value
    /// costlier than the shard's share of the cost limit is not stored, and the current
    /// value for `key` stays.
    @inlinable
    public func setValue(_ value: Value, forKey key: Key, cost: Int) {
        guard let timeToLive else { return setValue(value, forKey: key, cost: cost, expiresAt: .max) }
        let now = now()
        setValue(value, forKey: key, cost: cost, expiresAt: now &+ min(timeToLive, .max &- now))
    }

    /// Stores `value` as ``setValue(_:forKey:cost:)`` does, expiring after `lifetime` (or
    /// the time to live, whichever comes first): past it, a read is a miss and drops the
    /// value. A lifetime of zero or less stores nothing and removes the current value.
    @inlinable
    public func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAfter lifetime: Duration) {
        let nanoseconds = Self.nanoseconds(lifetime)
        guard nanoseconds > 0 else {
            removeValue(forKey: key)
            return
        }
        hasExpiringEntries.store(true, ordering: .relaxed)
        let now = now()
        let limit = min(nanoseconds, timeToLive ?? .max)
        setValue(value, forKey: key, cost: cost, expiresAt: now &+ min(limit, .max &- now))
    }

    @inlinable
    func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAt: Int64) {
        let hash = key.hashValue
        let released = shards[shardIndex(hash)].withLock { segment in
            segment.setValue(value, forKey: key, hash: hash, cost: cost, expiresAt: expiresAt)
        }
        _ = consume released
    }

    /// Whether any entry may have a deadline: a read then needs the time.
    @inlinable
    var mayExpire: Bool { timeToLive != nil || hasExpiringEntries.load(ordering: .relaxed) }

    /// A duration in nanoseconds, saturating: centuries are "never", a negative one 0.
    @inlinable
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        let (seconds, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = seconds.addingReportingOverflow(parts.attoseconds / 1_000_000_000)
        return overflow || overflowAgain ? (parts.seconds < 0 ? 0 : .max) : max(0, total)
    }

    /// Removes and returns the value for `key` (even an expired one).
    @inlinable
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        let hash = key.hashValue
        return shards[shardIndex(hash)].withLock { $0.removeValue(forKey: key, hash: hash) }
    }

    /// Removes every value.
    public func removeAll() {
        for index in 0..<shardCount {
            let old = shards[index].withLock { $0.takeAll() }
            _ = consume old
        }
    }

    /// Evicts from the tails (least recently used first, with second chances) until the
    /// total cost is at most `cost`; each shard is trimmed to its share of `cost`.
    public func trim(toCost cost: Int) {
        for index in 0..<shardCount {
            let share = MemoryCacheConfiguration.share(of: cost, part: index, of: shardCount)
            let evicted = shards[index].withLock { segment in
                var evicted = LRUSegment<Key, Value>.Dropped()
                segment.trim(toCost: share, into: &evicted)
                return evicted
            }
            _ = consume evicted
        }
    }

    /// Removes the expired values (past the time to live or their own lifetime). Reads
    /// find expired values anyway; this frees their memory sooner.
    public func removeExpired() {
        guard mayExpire else { return }
        let now = now()
        for index in 0..<shardCount {
            let dropped = shards[index].withLock { segment in
                var dropped = LRUSegment<Key, Value>.Dropped()
                segment.removeEntries(expiredAt: now, into: &dropped)
                return dropped
            }
            _ = consume dropped
        }
    }

    /// The sum of the costs of the values held (a snapshot: shards are read one by one).
    public var totalCost: Int {
        (0..<shardCount).reduce(0) { sum, index in sum + shards[index].withLock { $0.totalCost } }
    }

    /// The number of values held (a snapshot: shards are read one by one).
    public var count: Int {
        (0..<shardCount).reduce(0) { sum, index in sum + shards[index].withLock { $0.count } }
    }

    // MARK: Shards

    /// The key is hashed once per call; the top bits pick the shard, the low bits the
    /// bucket in the shard's index.
    @inlinable
    func shardIndex(_ hash: Int) -> Int {
        shardMask == 0 ? 0 : Int(bitPattern: UInt(bitPattern: hash) &>> UInt(shardShift))
    }

    /// Every shard's keys and costs in list order, front first (tests check invariants
    /// with it).
    package func entriesByShard() -> [[(key: Key, cost: Int)]] {
        (0..<shardCount).map { index in shards[index].withLock { $0.keysAndCosts() } }
    }
}
