import Synchronization
import Testing

@testable import WebImageCache
@testable import WebImageConcurrency
@testable import WebImageCore

/// A clock the tests move by hand, for time to live.
final class ManualClock: Sendable {
    private let time = Locked<Int64>(1_000_000_000)
    var now: Int64 { time.withLock { $0 } }
    func advance(by duration: Duration) {
        let parts = duration.components
        time.withLock { $0 += parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000 }
    }
}

/// A value whose release the tests can observe through a weak reference.
final class Token: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// One shard, so that the recency list is the whole cache's.
func singleShardCache(costLimit: Int = .max, countLimit: Int = .max, timeToLive: Duration? = nil, clock: ManualClock = ManualClock())
    -> MemoryCache<String, Int>
{
    MemoryCache(
        configuration: .init(costLimit: costLimit, countLimit: countLimit, timeToLive: timeToLive, shardCount: 1),
        clock: { clock.now })
}

/// The keys in list order from the front: most recently stored (or moved by a second
/// chance) first.
func keysByRecency<Value>(_ cache: MemoryCache<String, Value>) -> [String] {
    cache.entriesByShard().flatMap { $0.map(\.key) }
}

@Suite("MemoryCache: limits and eviction order (one shard)")
struct MemoryCacheLimitTests {
    @Test("a stored value reads back, and a missing key is a miss")
    func storeAndRead() {
        let cache = singleShardCache()
        cache.setValue(1, forKey: "a", cost: 10)
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.count == 1)
        #expect(cache.totalCost == 10)
    }

    @Test("the cost limit evicts the least recently used first")
    func costLimitEvictsLeastRecentlyUsed() {
        let cache = singleShardCache(costLimit: 30)
        cache.setValue(1, forKey: "a", cost: 10)
        cache.setValue(2, forKey: "b", cost: 10)
        cache.setValue(3, forKey: "c", cost: 10)
        _ = cache.value(forKey: "a")  // a was read; b is now the least recently used
        cache.setValue(4, forKey: "d", cost: 10)
        // a, read at the tail, got its second chance: moved to the front.
        #expect(keysByRecency(cache) == ["a", "d", "c"])
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.totalCost == 30)
        // A costlier value evicts as many as it needs, oldest first.
        cache.setValue(5, forKey: "e", cost: 25)
        #expect(keysByRecency(cache) == ["e"])
        #expect(cache.totalCost == 25)
    }

    @Test("the count limit evicts the least recently used first")
    func countLimitEvictsLeastRecentlyUsed() {
        let cache = singleShardCache(countLimit: 3)
        for (index, key) in ["a", "b", "c", "d", "e"].enumerated() {
            cache.setValue(index, forKey: key, cost: 0)
        }
        #expect(keysByRecency(cache) == ["e", "d", "c"])
        _ = cache.value(forKey: "c")
        cache.setValue(9, forKey: "f", cost: 0)
        #expect(keysByRecency(cache) == ["c", "f", "e"])
        #expect(cache.count == 3)
    }

    @Test("replacing a key updates its cost and makes it the most recent")
    func replacingUpdatesCost() {
        let cache = singleShardCache(costLimit: 100)
        cache.setValue(1, forKey: "a", cost: 10)
        cache.setValue(2, forKey: "b", cost: 20)
        cache.setValue(3, forKey: "a", cost: 50)
        #expect(cache.value(forKey: "a") == 3)
        #expect(cache.totalCost == 70)
        #expect(cache.count == 2)
        #expect(keysByRecency(cache) == ["a", "b"])
        // Growing "a" past what fits with "b" evicts "b", never "a" itself.
        cache.setValue(4, forKey: "a", cost: 90)
        #expect(keysByRecency(cache) == ["a"])
        #expect(cache.totalCost == 90)
    }

    @Test("a value costlier than the whole limit is not stored and replaces nothing")
    func oversizeValueIsRefused() {
        let cache = singleShardCache(costLimit: 100)
        cache.setValue(1, forKey: "a", cost: 40)
        cache.setValue(2, forKey: "b", cost: 40)
        cache.setValue(3, forKey: "a", cost: 101)
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.value(forKey: "b") == 2)
        #expect(cache.totalCost == 80)
        cache.setValue(4, forKey: "c", cost: 101)
        #expect(cache.value(forKey: "c") == nil)
        // Exactly the limit fits (after evicting the rest).
        cache.setValue(5, forKey: "d", cost: 100)
        #expect(keysByRecency(cache) == ["d"])
    }

    @Test("a negative cost counts as zero")
    func negativeCost() {
        let cache = singleShardCache(costLimit: 10)
        cache.setValue(1, forKey: "a", cost: -50)
        cache.setValue(2, forKey: "b", cost: 10)
        #expect(cache.totalCost == 10)
        #expect(cache.count == 2)
    }

    @Test("remove returns the value and frees its cost; removing a missing key is nil")
    func remove() {
        let cache = singleShardCache()
        cache.setValue(1, forKey: "a", cost: 5)
        cache.setValue(2, forKey: "b", cost: 7)
        #expect(cache.removeValue(forKey: "a") == 1)
        #expect(cache.removeValue(forKey: "a") == nil)
        #expect(cache.totalCost == 7)
        #expect(keysByRecency(cache) == ["b"])
        // The freed slot is reused and the list stays consistent.
        cache.setValue(3, forKey: "c", cost: 1)
        #expect(keysByRecency(cache) == ["c", "b"])
    }

    @Test("trim evicts least recently used until the total is at most the cost")
    func trim() {
        let cache = singleShardCache()
        for (index, key) in ["a", "b", "c", "d"].enumerated() { cache.setValue(index, forKey: key, cost: 10) }
        _ = cache.value(forKey: "a")
        cache.trim(toCost: 25)
        #expect(keysByRecency(cache) == ["a", "d"])
        #expect(cache.totalCost == 20)
        cache.trim(toCost: 0)
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
    }

    @Test("removeAll empties the cache, which keeps working afterwards")
    func removeAll() {
        let cache = singleShardCache(countLimit: 2)
        cache.setValue(1, forKey: "a", cost: 3)
        cache.setValue(2, forKey: "b", cost: 4)
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.value(forKey: "a") == nil)
        cache.setValue(3, forKey: "c", cost: 1)
        cache.setValue(4, forKey: "d", cost: 1)
        cache.setValue(5, forKey: "e", cost: 1)
        #expect(keysByRecency(cache) == ["e", "d"])
    }

    @Test("values that leave the cache are released, not leaked")
    func valuesAreReleased() {
        let cache = MemoryCache<String, Token>(configuration: .init(costLimit: 20, shardCount: 1))
        weak var evicted: Token?
        weak var replaced: Token?
        weak var cleared: Token?
        do {
            let first = Token("first")
            let second = Token("second")
            evicted = first
            replaced = second
            cache.setValue(first, forKey: "a", cost: 10)
            cache.setValue(second, forKey: "b", cost: 10)
        }
        cache.setValue(Token("third"), forKey: "b", cost: 10)  // replaces second
        cache.setValue(Token("fourth"), forKey: "c", cost: 10)  // evicts first
        #expect(evicted == nil)
        #expect(replaced == nil)
        do {
            let kept = cache.value(forKey: "c")
            cleared = kept
            #expect(kept?.name == "fourth")
        }
        cache.removeAll()
        #expect(cleared == nil)
    }

    @Test("a hit moves nothing; a value read since it reached the tail gets one second chance")
    func secondChance() {
        let cache = singleShardCache(countLimit: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.setValue(index, forKey: key, cost: 0) }
        _ = cache.value(forKey: "a")
        _ = cache.value(forKey: "b")
        #expect(keysByRecency(cache) == ["c", "b", "a"])
        // a and b were read, c was not: c goes.
        cache.setValue(3, forKey: "d", cost: 0)
        #expect(keysByRecency(cache) == ["b", "a", "d"])
        // Not read since their second chance: the oldest go first again.
        cache.setValue(4, forKey: "e", cost: 0)
        #expect(keysByRecency(cache) == ["e", "b", "a"])
        cache.setValue(5, forKey: "f", cost: 0)
        #expect(keysByRecency(cache) == ["f", "e", "b"])
    }

    @Test("a store never evicts its own value, even when every other value was read")
    func storeKeepsItsOwnValue() {
        let cache = singleShardCache(countLimit: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.setValue(index, forKey: key, cost: 0) }
        for key in ["a", "b", "c"] { _ = cache.value(forKey: key) }
        cache.setValue(3, forKey: "d", cost: 0)
        // Every old value had its second chance; the oldest of them goes, not d.
        #expect(keysByRecency(cache) == ["d", "c", "b"])
        #expect(cache.value(forKey: "d") == 3)

        // The same for a value replaced with a larger cost.
        let costly = singleShardCache(costLimit: 30)
        for (index, key) in ["a", "b", "c"].enumerated() { costly.setValue(index, forKey: key, cost: 10) }
        for key in ["a", "b", "c"] { _ = costly.value(forKey: key) }
        costly.setValue(9, forKey: "c", cost: 20)
        #expect(keysByRecency(costly) == ["c", "b"])
        #expect(costly.value(forKey: "c") == 9)
        #expect(costly.totalCost == 30)
    }

    @Test("a count limit of zero stores nothing")
    func zeroCountLimit() {
        let cache = singleShardCache(countLimit: 0)
        cache.setValue(1, forKey: "a", cost: 0)
        #expect(cache.count == 0)
        #expect(cache.value(forKey: "a") == nil)
    }
}

@Suite("MemoryCache: time to live")
struct MemoryCacheTimeToLiveTests {
    @Test("a value older than the time to live reads as a miss and is dropped")
    func expiry() {
        let clock = ManualClock()
        let cache = singleShardCache(timeToLive: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "a", cost: 5)
        clock.advance(by: .seconds(6))
        cache.setValue(2, forKey: "b", cost: 5)
        #expect(cache.value(forKey: "a") == 1)
        clock.advance(by: .seconds(5))  // a is 11 s old, b 5 s
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "b") == 2)
        #expect(cache.count == 1)
        #expect(cache.totalCost == 5)
    }

    @Test("storing again restarts the time to live")
    func restoreRestartsTimeToLive() {
        let clock = ManualClock()
        let cache = singleShardCache(timeToLive: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "a", cost: 1)
        clock.advance(by: .seconds(8))
        cache.setValue(2, forKey: "a", cost: 1)
        clock.advance(by: .seconds(8))
        #expect(cache.value(forKey: "a") == 2)
    }

    @Test("removeExpired drops every expired value without reading it")
    func removeExpired() {
        let clock = ManualClock()
        let cache = singleShardCache(timeToLive: .milliseconds(500), clock: clock)
        cache.setValue(1, forKey: "a", cost: 1)
        cache.setValue(2, forKey: "b", cost: 1)
        clock.advance(by: .milliseconds(400))
        cache.setValue(3, forKey: "c", cost: 1)
        clock.advance(by: .milliseconds(200))
        cache.removeExpired()
        #expect(keysByRecency(cache) == ["c"])
        #expect(cache.totalCost == 1)
    }

    @Test("without a time to live nothing expires, on the real clock too")
    func noTimeToLive() throws {
        let cache = MemoryCache<String, Int>(configuration: .init(shardCount: 1))
        cache.setValue(1, forKey: "a", cost: 1)
        cache.removeExpired()
        #expect(cache.value(forKey: "a") == 1)
    }

    @Test("a short real time to live expires on the monotonic clock")
    func realClock() async throws {
        let cache = MemoryCache<String, Int>(configuration: .init(timeToLive: .milliseconds(50)))
        cache.setValue(1, forKey: "a", cost: 1)
        // Real time passing is the subject. The entry expires once the cache's own clock
        // is past the store's reading plus the time to live; read after the store, this
        // deadline is no earlier. Slept until the clock passes it (that clock moves in
        // ticks of about a millisecond), not for a margin.
        let expiry = MonotonicClock.nanoseconds() + 50_000_000
        while case let left = expiry - MonotonicClock.nanoseconds(), left >= 0 {
            try await Task.sleep(for: .nanoseconds(max(left + 1, 1_000_000)))
        }
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.count == 0)
    }
}

@Suite("MemoryCache: CacheKey and shards")
struct MemoryCacheKeyTests {
    @Test("CacheKey works as the key; equal strings find the same value")
    func cacheKeys() {
        let cache = MemoryCache<CacheKey, DecodedImageStandIn>(configuration: .init(costLimit: 1 << 20))
        let key = CacheKey("https://example.com/a.jpg?w=100")
        cache.setValue(DecodedImageStandIn(bytes: 400), forKey: key, cost: 400)
        #expect(cache.value(forKey: CacheKey("https://example.com/a.jpg?w=100"))?.bytes == 400)
        #expect(cache.value(forKey: CacheKey("https://example.com/a.jpg?w=200")) == nil)
    }

    @Test("limits are split across shards and add up to the configured ones")
    func limitsSplitAcrossShards() {
        let cache = MemoryCache<CacheKey, Int>(configuration: .init(costLimit: 8_000, countLimit: 80, shardCount: 8))
        for index in 0..<1_000 {
            cache.setValue(index, forKey: CacheKey("key \(index)"), cost: 50)
        }
        let shards = cache.entriesByShard()
        #expect(shards.count == 8)
        for shard in shards {
            #expect(shard.count <= 10)
            #expect(shard.reduce(0) { $0 + $1.cost } <= 1_000)
        }
        #expect(cache.count <= 80)
        #expect(cache.totalCost <= 8_000)
        #expect(cache.count >= 70)  // every shard got keys and filled to its share
    }

    @Test("a value costlier than a shard's share is not stored")
    func valueOverShardShare() {
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 1_000, shardCount: 4))
        cache.setValue(1, forKey: "big", cost: 251)
        #expect(cache.value(forKey: "big") == nil)
        cache.setValue(2, forKey: "fits", cost: 250)
        #expect(cache.value(forKey: "fits") == 2)
    }
}

/// Stands in for a decoded image: a value type holding its pixels by reference.
struct DecodedImageStandIn: Sendable {
    var pixels: [UInt8]
    var bytes: Int { pixels.count }
    init(bytes: Int) { pixels = Array(repeating: 0, count: bytes) }
}

@Suite("MemoryCache: a lifetime per value")
struct MemoryCacheLifetimeTests {
    @Test("a value stored with a lifetime misses once it has passed; values without one stay")
    func lifetime() {
        let clock = ManualClock()
        let cache = singleShardCache(clock: clock)
        cache.setValue(1, forKey: "fresh for 5 s", cost: 1, expiresAfter: .seconds(5))
        cache.setValue(2, forKey: "forever", cost: 1)
        clock.advance(by: .seconds(5))
        #expect(cache.value(forKey: "fresh for 5 s") == 1, "at the deadline still there")
        clock.advance(by: .milliseconds(1))
        #expect(cache.value(forKey: "fresh for 5 s") == nil)
        #expect(cache.value(forKey: "forever") == 2)
        #expect(cache.count == 1)
    }

    @Test("the earlier of the lifetime and the time to live wins")
    func earlierDeadline() {
        let clock = ManualClock()
        let cache = singleShardCache(timeToLive: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "long", cost: 1, expiresAfter: .seconds(3600))
        cache.setValue(2, forKey: "short", cost: 1, expiresAfter: .seconds(2))
        clock.advance(by: .seconds(3))
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.value(forKey: "long") == 1)
        clock.advance(by: .seconds(8))
        #expect(cache.value(forKey: "long") == nil, "the time to live came first")
    }

    @Test("a lifetime of zero stores nothing and removes the old value; removeExpired drops the passed ones")
    func zeroAndSweep() {
        let clock = ManualClock()
        let cache = singleShardCache(clock: clock)
        cache.setValue(1, forKey: "a", cost: 1)
        cache.setValue(2, forKey: "a", cost: 1, expiresAfter: .zero)
        #expect(cache.value(forKey: "a") == nil && cache.count == 0)
        cache.setValue(3, forKey: "b", cost: 1, expiresAfter: .seconds(1))
        cache.setValue(4, forKey: "c", cost: 1)
        clock.advance(by: .seconds(2))
        cache.removeExpired()
        #expect(cache.count == 1 && cache.totalCost == 1)
    }
}
