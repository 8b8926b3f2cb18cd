import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageSharedCache

/// Replies read straight into hiredis's reader: a bulk string's rest is read to its last
/// byte, values of any size come back whole, many replies in one read are each answered,
/// and the connection's other replies (integers, nil, errors) are hiredis's as before.
@Suite("Redis replies", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct RedisReadingTests {
    /// Either side of hiredis's 16 KiB read, of the reply buffers' smallest class, of a
    /// read's largest (1 MiB), and of the kept reader buffer.
    static let sizes = [1, 2, 16_383, 16_384, 16_385, 50_000, (1 << 20) - 1, (1 << 20) + 1, 3 << 20]

    static func value(_ size: Int, seed: Int) -> Data {
        Payload.bytes(tag: "redis-reading", key: String(seed), minimum: size, spread: 1)
    }

    @Test("values of every size come back whole, all asked at once (one pipelined connection)")
    func sizes() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache { $0.commandTimeout = .seconds(10) }
            for (index, size) in Self.sizes.enumerated() {
                var set = RedisCommand("SET", "value:\(index)")
                set.append(Self.value(size, seed: index))
                #expect(await cache.client.send(set, to: 0) == .success(.status("OK")))
            }
            // Three rounds of every value at once: replies arrive back to back in reads.
            let replies = await withTaskGroup(of: (Int, Result<RedisReply, RedisFailure>).self) { group in
                for _ in 0..<3 {
                    for index in Self.sizes.indices {
                        group.addTask { (index, await cache.client.send(RedisCommand("GET", "value:\(index)"), to: 0)) }
                    }
                }
                return await group.reduce(into: [(Int, Result<RedisReply, RedisFailure>)]()) { $0.append($1) }
            }
            #expect(replies.count == Self.sizes.count * 3)
            for (index, reply) in replies {
                guard case .success(.bulk(let data)) = reply else {
                    Issue.record("value \(index): \(reply)")
                    continue
                }
                #expect(data == Self.value(Self.sizes[index], seed: index), "value \(index) of \(Self.sizes[index]) bytes")
            }
        }
    }

    @Test("a thousand small replies in flight at once, each to its own command")
    func manySmallReplies() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache { $0.commandTimeout = .seconds(10) }
            let replies = await withTaskGroup(of: (Int, Result<RedisReply, RedisFailure>).self) { group in
                for index in 0..<1000 {
                    group.addTask { (index, await cache.client.send(RedisCommand("INCRBY", "counter:\(index)", "\(index)"), to: 0)) }
                }
                return await group.reduce(into: [Int: Result<RedisReply, RedisFailure>]()) { $0[$1.0] = $1.1 }
            }
            #expect(replies.count == 1000)
            for (index, reply) in replies where reply != .success(.integer(Int64(index))) {
                Issue.record("INCRBY \(index): \(reply)")
            }
        }
    }

    @Test("nil, empty, integer, status and error replies between values")
    func otherReplies() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache()
            var set = RedisCommand("SET", "big")
            set.append(Self.value(100_000, seed: 1))
            async let stored = cache.client.send(set, to: 0)
            async let empty = cache.client.send(RedisCommand("SET", "empty", ""), to: 0)
            #expect(await stored == .success(.status("OK")))
            #expect(await empty == .success(.status("OK")))
            async let absent = cache.client.send(RedisCommand("GET", "absent"), to: 0)
            async let big = cache.client.send(RedisCommand("GET", "big"), to: 0)
            async let nothing = cache.client.send(RedisCommand("GET", "empty"), to: 0)
            async let length = cache.client.send(RedisCommand("STRLEN", "big"), to: 0)
            async let wrong = cache.client.send(RedisCommand("NOSUCHCOMMAND"), to: 0)
            #expect(await absent == .success(.null))
            #expect(await big == .success(.bulk(Self.value(100_000, seed: 1))))
            #expect(await nothing == .success(.bulk(Data())))
            #expect(await length == .success(.integer(100_000)))
            guard case .success(.error(let message)) = await wrong else { return #expect(Bool(false), "an error reply") }
            #expect(message.contains("unknown command"))
        }
    }
}
