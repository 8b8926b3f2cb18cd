import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageSharedCache

@Suite("Shared cache: the index of variants per source", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedCacheVariantIndexTests {
    static let body = Data(repeating: 7, count: 2_000)

    @Test("a purge removes the source, its 1,000 recorded variants on both nodes and the index; other sources stay")
    func purgeThousandVariants() async throws {
        try await withNodes(2) { nodes in
            let cache = try nodes.cache()
            let source: CacheKey = "https://a.example/photo.jpg"
            let other: CacheKey = "https://a.example/other.jpg"
            try await cache.store(Self.body, metadata: CachedResponseMetadata(), forKey: source)
            try await cache.store(Self.body, metadata: CachedResponseMetadata(), forKey: other)
            let variants = (0..<1000).map { CacheKey("variant/\($0)") }
            await withTaskGroup(of: Void.self) { group in
                for chunk in stride(from: 0, to: variants.count, by: 100) {
                    group.addTask {
                        for variant in variants[chunk..<chunk + 100] {
                            try? await cache.store(Self.body, metadata: CachedResponseMetadata(), forKey: variant)
                            await cache.recordVariant(variant, ofSource: source)
                        }
                    }
                }
            }
            try await cache.store(Self.body, metadata: CachedResponseMetadata(), forKey: "variant/of-other")
            await cache.recordVariant("variant/of-other", ofSource: other)
            #expect(Set(variants.map { cache.nodeIndex(for: $0) }) == [0, 1], "the variants are spread over both nodes")
            #expect(cache.count == 1003)

            let removed = await cache.purgeSource(source)
            #expect(removed == 1000)
            #expect(cache.count == 2, "the other source and its variant")
            #expect(await cache.response(forKey: source) == nil)
            #expect(await cache.response(forKey: other) != nil)
            #expect(await cache.response(forKey: "variant/of-other") != nil)
            let index = await cache.client.send(RedisCommand("EXISTS", cache.indexKey(source)), to: cache.nodeIndex(for: source))
            #expect(index == .success(.integer(0)))
            #expect(await cache.purgeSource(source) == 0, "a second purge finds nothing")
        }
    }

    @Test("the index lives as long as the tier's entries: its TTL is renewed to the configured one at each record")
    func indexTTL() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache { $0.timeToLive = .seconds(600) }
            await cache.recordVariant("variant/1", ofSource: "s")
            let ttl = await cache.client.send(RedisCommand("PTTL", cache.indexKey("s")), to: 0)
            guard case .success(.integer(let milliseconds)) = ttl else { return #expect(Bool(false), "\(ttl)") }
            #expect(milliseconds > 300_000 && milliseconds <= 600_000)
        }
    }

    @Test("with the source's node down a purge says it could not read the index (nil)")
    func nodeDown() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache()
            await cache.recordVariant("variant/1", ofSource: "s")
            nodes.servers[0].stop()
            #expect(await cache.purgeSource("s") == nil)
        }
    }
}
