import Testing
import WebImageCore

@testable import WebImageCache

@Suite("MemoryCache: many threads at once")
struct MemoryCacheConcurrencyTests {
    @Test("tasks setting, reading, removing and trimming leave consistent totals", arguments: [1, 8])
    func stress(shards: Int) async {
        let cache = MemoryCache<CacheKey, Int>(configuration: .init(costLimit: 64_000, countLimit: 400, shardCount: shards))
        let keys = (0..<500).map { CacheKey("https://example.com/\($0).png") }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var state = UInt64(worker + 1) &* 0x9E37_79B9_7F4A_7C15
                    for step in 0..<20_000 {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let index = Int((state >> 33) % UInt64(keys.count))
                        switch step % 10 {
                        case 0...5: _ = cache.value(forKey: keys[index])
                        case 6...7: cache.setValue(index, forKey: keys[index], cost: 50 + index % 200)
                        case 8: cache.removeValue(forKey: keys[index])
                        default: if step % 1_000 == 9 { cache.trim(toCost: 32_000) } else { _ = cache.totalCost }
                        }
                    }
                }
            }
        }
        let entries = cache.entriesByShard().flatMap { $0 }
        #expect(cache.count == entries.count)
        #expect(cache.totalCost == entries.reduce(0) { $0 + $1.cost })
        #expect(Set(entries.map(\.key)).count == entries.count)
        #expect(cache.count <= 400)
        #expect(cache.totalCost <= 64_000)
        // Every value held is the one its key was stored with.
        for entry in entries {
            let index = keys.firstIndex(of: entry.key)
            #expect(index.map { cache.value(forKey: entry.key) == $0 } == true)
        }
    }

    @Test("threads hitting the same keys always see a stored value")
    func concurrentHits() async {
        let cache = MemoryCache<CacheKey, Int>()
        let keys = (0..<64).map { CacheKey("k\($0)") }
        for (index, key) in keys.enumerated() { cache.setValue(index, forKey: key, cost: 1) }
        let misses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var misses = 0
                    for step in 0..<50_000 where cache.value(forKey: keys[step % keys.count]) != step % keys.count {
                        misses += 1
                    }
                    return misses
                }
            }
            return await group.reduce(0, +)
        }
        #expect(misses == 0)
        #expect(cache.count == keys.count)
    }
}
