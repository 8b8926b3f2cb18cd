import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageSharedCache

@Suite("Shared cache: entries on a node", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedCacheStoreTests {
    static let body = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    static let metadata = CachedResponseMetadata(contentType: "image/jpeg", etag: "\"v1\"", maxAge: 60)

    @Test("a stored entry is found by another member, bytes and metadata whole, with the configured TTL")
    func storeAndFind() async throws {
        try await withNodes { nodes in
            let writer = try nodes.cache { $0.timeToLive = .seconds(600) }
            let reader = try nodes.cache()
            try await writer.store(Self.body, metadata: Self.metadata, forKey: "https://a.example/1.jpg")
            guard case .hit(let entry) = await reader.lookup(forKey: "https://a.example/1.jpg", coalescing: true) else {
                Issue.record("no hit")
                return
            }
            #expect(entry.data == Self.body)
            #expect(entry.metadata.etag == "\"v1\"")
            #expect(entry.metadata.contentType == "image/jpeg")
            let ttl = await writer.client.send(RedisCommand("PTTL", writer.valueKey("https://a.example/1.jpg")), to: 0)
            guard case .success(.integer(let milliseconds)) = ttl else { return #expect(Bool(false), "\(ttl)") }
            #expect(milliseconds > 300_000 && milliseconds <= 600_000, "the configured TTL, less the time since the store")
            // The synchronous API reads the same entry.
            let readBlocking: () -> CachedResponse? = { reader.response(forKey: "https://a.example/1.jpg") }
            #expect(readBlocking()?.data == Self.body)
        }
    }

    @Test("a response with max-age and no validator lives only while fresh")
    func freshnessBoundsTheTTL() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache()
            try await cache.store(Self.body, metadata: CachedResponseMetadata(maxAge: 30), forKey: "k")
            let ttl = await cache.client.send(RedisCommand("PTTL", cache.valueKey("k")), to: 0)
            guard case .success(.integer(let milliseconds)) = ttl else { return #expect(Bool(false), "\(ttl)") }
            #expect(
                milliseconds > 0 && milliseconds <= 30_000, "PTTL \(milliseconds): at most the response's max-age, not the day configured")
        }
    }

    @Test("garbage in a value is a miss, and is deleted")
    func garbage() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache()
            var set = RedisCommand("SET", cache.valueKey("k"))
            set.append(Data("not an entry at all".utf8))
            _ = await cache.client.send(set, to: 0)
            guard case .miss = await cache.lookup(forKey: "k", coalescing: false) else {
                Issue.record("garbage was used")
                return
            }
            // The miss sent its DEL before it returned, and one node's commands go in order
            // on one connection: this EXISTS is answered after the DEL.
            #expect(await cache.client.send(RedisCommand("EXISTS", cache.valueKey("k")), to: 0) == .success(.integer(0)))
            // A damaged entry (one byte changed) is a miss too.
            try await cache.store(Self.body, metadata: Self.metadata, forKey: "d")
            guard case .success(.bulk(var value)) = await cache.client.send(RedisCommand("GET", cache.valueKey("d")), to: 0) else {
                return #expect(Bool(false))
            }
            value[value.count / 2] ^= 1
            var damaged = RedisCommand("SET", cache.valueKey("d"))
            damaged.append(value)
            _ = await cache.client.send(damaged, to: 0)
            #expect(await cache.response(forKey: "d") == nil)
        }
    }

    @Test("an entry above the size limit is refused with entryTooLarge, and its lease is given up")
    func tooLarge() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache {
                $0.maximumEntrySize = 10_000
                $0.leaseDuration = .seconds(60)
            }
            let other = try nodes.cache { $0.leaseDuration = .seconds(60) }
            guard case .miss(leased: true) = await cache.lookup(forKey: "big", coalescing: true) else {
                return #expect(Bool(false), "no lease")
            }
            await #expect(throws: CacheError.self) { try await cache.store(Self.body, metadata: Self.metadata, forKey: "big") }
            do {
                try await cache.store(Self.body, metadata: Self.metadata, forKey: "big")
            } catch let error as CacheError {
                #expect(error.code == .entryTooLarge)
            }
            let started = ContinuousClock.now
            guard case .miss(leased: true) = await other.lookup(forKey: "big", coalescing: true) else {
                return #expect(Bool(false), "the lease was kept")
            }
            #expect(ContinuousClock.now - started < .seconds(30), "taken at once, not after the 60 s lease")
        }
    }

    @Test("a full node (maxmemory, noeviction) refuses stores with writeFailed; what it holds is still found")
    func fullNode() async throws {
        try await withNodes(arguments: ["--maxmemory", "3mb", "--maxmemory-policy", "noeviction"]) { nodes in
            let cache = try nodes.cache()
            var refused: CacheError?
            var stored = 0
            for index in 0..<200 where refused == nil {
                do {
                    try await cache.store(Self.body, metadata: Self.metadata, forKey: CacheKey("k\(index)"))
                    stored += 1
                } catch let error as CacheError {
                    refused = error
                }
            }
            #expect(refused?.code == .writeFailed, "\(String(describing: refused))")
            #expect(refused?.message.contains("OOM") == true, "\(String(describing: refused))")
            #expect(stored > 0)
            #expect(await cache.response(forKey: "k0")?.data == Self.body)
        }
    }

    @Test("statistics count the tier's entries and bytes; removeAll removes only the tier's keys")
    func statisticsAndRemoval() async throws {
        try await withNodes(2) { nodes in
            let cache = try nodes.cache()
            for index in 0..<20 { try await cache.store(Self.body, metadata: Self.metadata, forKey: CacheKey("s\(index)")) }
            _ = await cache.client.send(RedisCommand("SET", "someone-else", "x"), to: 0)
            let statistics = await cache.statistics()
            #expect(statistics.map(\.entries).reduce(0, +) == 20)
            #expect(statistics.allSatisfy { $0.isReachable && $0.usedMemory ?? 0 > 0 })
            #expect(cache.count == 20)
            #expect(cache.totalSize > 20 * Self.body.count)
            cache.removeAll()
            #expect(cache.count == 0)
            #expect(await cache.client.send(RedisCommand("GET", "someone-else"), to: 0) == .success(.bulk(Data("x".utf8))))
        }
    }
}

@Suite("Shared cache: passwords and databases", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedCacheAuthenticationTests {
    @Test("the URL's password is sent with AUTH and its database selected; a wrong password makes every command a miss")
    func passwordAndDatabase() async throws {
        try await withNodes(arguments: ["--requirepass", "s3cret"]) { nodes in
            let port = nodes.servers[0].port
            let right = try SharedCache(configuration: .init(nodes: [try RedisNodeAddress("redis://:s3cret@127.0.0.1:\(port)/3")]))
            try await right.store(Data("bytes".utf8), metadata: .init(), forKey: "k")
            #expect(await right.response(forKey: "k")?.data == Data("bytes".utf8))
            // Database 3, not 0.
            let databaseZero = try SharedCache(configuration: .init(nodes: [try RedisNodeAddress("redis://:s3cret@127.0.0.1:\(port)")]))
            #expect(await databaseZero.response(forKey: "k") == nil)

            let wrong = try SharedCache(configuration: .init(nodes: [try RedisNodeAddress("redis://:nope@127.0.0.1:\(port)/3")]))
            #expect(await wrong.response(forKey: "k") == nil)
            await #expect(throws: CacheError.self) { try await wrong.store(Data("x".utf8), metadata: .init(), forKey: "k") }
            let none = try SharedCache(configuration: .init(nodes: [try RedisNodeAddress("redis://127.0.0.1:\(port)/3")]))
            #expect(await none.response(forKey: "k") == nil)
        }
    }
}
