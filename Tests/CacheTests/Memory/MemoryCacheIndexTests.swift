import Testing
import WebImageCache

/// A key whose hash has only a few distinct values, so that many keys share a full hash
/// and the shard's index must probe past them and shift them back on removal.
struct CollidingKey: Hashable, Sendable {
    var number: Int
    func hash(into hasher: inout Hasher) { hasher.combine(number % 3) }
}

@Suite("MemoryCache: index under hash collisions")
struct MemoryCacheIndexTests {
    @Test("random sets and removes of colliding keys match a reference dictionary", arguments: [1, 4])
    func collisionsMatchReference(shards: Int) {
        let cache = MemoryCache<CollidingKey, Int>(configuration: .init(costLimit: .max, shardCount: shards))
        var reference: [CollidingKey: Int] = [:]
        var state: UInt64 = 42
        for step in 0..<6_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = CollidingKey(number: Int((state >> 33) % 200))
            if step % 3 == 2 {
                #expect(cache.removeValue(forKey: key) == reference.removeValue(forKey: key))
            } else {
                cache.setValue(step, forKey: key, cost: 1)
                reference[key] = step
            }
        }
        #expect(cache.count == reference.count)
        for number in 0..<200 {
            let key = CollidingKey(number: number)
            #expect(cache.value(forKey: key) == reference[key])
        }
    }

    @Test("the index grows past its first capacity and finds every key")
    func growth() {
        let cache = MemoryCache<Int, Int>(configuration: .init(costLimit: .max, shardCount: 1))
        for number in 0..<10_000 { cache.setValue(number * 2, forKey: number, cost: 1) }
        #expect(cache.count == 10_000)
        #expect((0..<10_000).allSatisfy { cache.value(forKey: $0) == $0 * 2 })
        #expect(cache.value(forKey: 10_000) == nil)
    }
}
