import Testing
import WebImageCache

@Suite("MemoryCacheConfiguration")
struct MemoryCacheConfigurationTests {
    @Test("the default cost limit is an eighth of memory, at most 512 MiB")
    func defaultCostLimit() {
        let limit = MemoryCacheConfiguration.defaultCostLimit
        #expect(limit > 0)
        #expect(limit <= 512 << 20)
        #expect(MemoryCacheConfiguration().countLimit == .max)
        #expect(MemoryCacheConfiguration().timeToLive == nil)
    }

    @Test("the automatic shard count keeps each share at least 64 MiB, at most 8 shards")
    func automaticShards() {
        #expect(MemoryCacheConfiguration.automaticShardCount(costLimit: 512 << 20) == 8)
        #expect(MemoryCacheConfiguration.automaticShardCount(costLimit: 1 << 40) == 8)
        #expect(MemoryCacheConfiguration.automaticShardCount(costLimit: 256 << 20) == 4)
        #expect(MemoryCacheConfiguration.automaticShardCount(costLimit: 100 << 20) == 1)
        #expect(MemoryCacheConfiguration.automaticShardCount(costLimit: 0) == 1)
    }

    @Test("a requested shard count is rounded up to a power of two, between 1 and 64")
    func effectiveShards() {
        #expect(MemoryCacheConfiguration(shardCount: 1).effectiveShardCount == 1)
        #expect(MemoryCacheConfiguration(shardCount: 3).effectiveShardCount == 4)
        #expect(MemoryCacheConfiguration(shardCount: 16).effectiveShardCount == 16)
        #expect(MemoryCacheConfiguration(shardCount: 0).effectiveShardCount == 1)
        #expect(MemoryCacheConfiguration(shardCount: -5).effectiveShardCount == 1)
        #expect(MemoryCacheConfiguration(shardCount: 1_000).effectiveShardCount == 64)
    }

    @Test("a cache of any configuration, even a nonsensical one, works without trapping")
    func oddConfigurations() {
        for configuration in [
            MemoryCacheConfiguration(costLimit: -1, countLimit: -1),
            MemoryCacheConfiguration(costLimit: 0, countLimit: 0, shardCount: 64),
            MemoryCacheConfiguration(costLimit: .max, countLimit: .max, timeToLive: .seconds(Int64.max)),
            MemoryCacheConfiguration(timeToLive: .zero),
        ] {
            let cache = MemoryCache<String, Int>(configuration: configuration)
            cache.setValue(1, forKey: "a", cost: 1)
            _ = cache.value(forKey: "a")
            cache.trim(toCost: -10)
            cache.removeExpired()
            #expect(cache.count == 0 || cache.count == 1)
            #expect(cache.totalCost >= 0)
        }
    }
}
