import Testing

@testable import WebImageSharedCache

@Suite("Redis node addresses")
struct RedisNodeAddressTests {
    @Test("host, port, password and database from a redis:// URL; the description hides the password")
    func parsing() throws {
        let node = try RedisNodeAddress("redis://:s%40cret@10.0.0.7:6380/2")
        #expect(node == RedisNodeAddress(host: "10.0.0.7", port: 6380, password: "s@cret", database: 2))
        #expect(node.description == "redis://10.0.0.7:6380/2")
        #expect(try RedisNodeAddress("redis://cache.internal") == RedisNodeAddress(host: "cache.internal"))
    }

    @Test("a comma-separated list, as --shared-cache takes")
    func list() throws {
        let nodes = try RedisNodeAddress.list("redis://127.0.0.1:7001, redis://127.0.0.1:7002")
        #expect(nodes.map(\.port) == [7001, 7002])
    }

    @Test("refused: TLS, another scheme, no host, a bad port or database, each with a message")
    func refused() {
        for bad in ["rediss://127.0.0.1", "http://127.0.0.1:6379", "redis://", "redis://h:70000", "redis://h:1/x", "not a url"] {
            #expect(throws: SharedCacheError.self, "\(bad)") { try RedisNodeAddress(bad) }
        }
        #expect((try? RedisNodeAddress("rediss://h")) == nil)
        do {
            _ = try RedisNodeAddress("rediss://h")
        } catch {
            #expect(error.message.contains("TLS"))
        }
    }

    @Test("the ring identity is host, port and database, not the password")
    func identity() throws {
        #expect(try RedisNodeAddress("redis://:a@h:1/3").ringIdentity == RedisNodeAddress("redis://:b@h:1/3").ringIdentity)
    }
}
