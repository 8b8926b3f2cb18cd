import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@testable import WebImageSharedCache

@Suite("Shared cache: faults are misses", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedCacheFaultTests {
    static let body = Data(repeating: 3, count: 10_000)

    @Test("a node nobody listens on: a quick miss, no lease, then skipped during its backoff")
    func nothingListening() async throws {
        let port = try LoopbackPort.free()
        var configuration = SharedCache.Configuration(nodes: [RedisNodeAddress(host: "127.0.0.1", port: port)])
        configuration.initialBackoff = .seconds(60)
        let cache = try SharedCache(configuration: configuration)
        // (No bound on the time: beside the suites that wait on other programs, the test
        // pool was starved for seconds; what matters is the miss and the backoff below.)
        guard case .miss(leased: false) = await cache.lookup(forKey: "k", coalescing: true) else { return #expect(Bool(false)) }
        // In its backoff the node is not even tried.
        #expect(await cache.client.send(RedisCommand("PING"), to: 0) == .failure(.nodeDown))
        await #expect(throws: CacheError.self) { try await cache.store(Self.body, metadata: .init(), forKey: "k") }
        #expect(cache.statisticsNow().first?.isReachable == false)
    }

    @Test("a paused node (SIGSTOP): lookups time out within the command timeout, then skip it; after SIGCONT it serves again")
    func pausedNode() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache {
                $0.initialBackoff = .seconds(5)
                $0.maximumBackoff = .seconds(5)
            }
            try await cache.store(Self.body, metadata: .init(), forKey: "k")
            nodes.servers[0].pause()
            defer { nodes.servers[0].resume() }

            let started = ContinuousClock.now
            guard case .miss(leased: false) = await cache.lookup(forKey: "k", coalescing: true) else {
                return #expect(Bool(false), "a paused node answered")
            }
            let timedOut = ContinuousClock.now - started
            #expect(timedOut >= .milliseconds(150) && timedOut < .seconds(60), "\(timedOut)")
            // In its backoff the node is skipped, not waited for.
            #expect(await cache.client.send(RedisCommand("GET", cache.valueKey("k")), to: 0) == .failure(.nodeDown))

            nodes.servers[0].resume()
            // Polled: the node is tried again once its backoff has passed on the client's
            // clock, by the next command; nothing announces that moment.
            #expect(
                await eventually(within: .seconds(30)) {
                    if case .hit = await cache.lookup(forKey: "k", coalescing: false) { return true }
                    return false
                }, "the node came back")
        }
    }

    @Test("a node killed mid-run: its keys are misses, the other nodes' keys still hit; restarted, it is used again")
    func killedNode() async throws {
        try await withNodes(3) { nodes in
            let cache = try nodes.cache()
            let keys = (0..<60).map { CacheKey("https://img.example/\($0).jpg") }
            for key in keys { try await cache.store(Self.body, metadata: .init(), forKey: key) }
            let onFirst = keys.filter { cache.nodeIndex(for: $0) == 0 }
            #expect(!onFirst.isEmpty && onFirst.count < keys.count)

            nodes.servers[0].stop()
            for key in keys {
                let found = await cache.response(forKey: key) != nil
                #expect(found == (cache.nodeIndex(for: key) != 0), "\(key)")
            }
            try nodes.servers[0].restart()
            // Empty after the restart: stores go there again once its backoff is over.
            // Polled: the backoff ends on the client's clock, and only a command tries the
            // node again; nothing announces that moment.
            #expect(
                await eventually(within: .seconds(20)) {
                    (try? await cache.store(Self.body, metadata: .init(), forKey: onFirst[0])) != nil
                })
            #expect(await cache.response(forKey: onFirst[0])?.data == Self.body)
        }
    }

    @Test("a node that closes the connection (CLIENT KILL) fails the commands under way, and the next command reconnects")
    func brokenConnection() async throws {
        try await withNodes { nodes in
            let cache = try nodes.cache { $0.initialBackoff = .milliseconds(50) }
            try await cache.store(Self.body, metadata: .init(), forKey: "k")
            let killer = try nodes.cache()
            _ = await killer.client.send(RedisCommand("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"), to: 0)
            // Polled: the client learns of the closed connection from its next command,
            // then backs off for 50 ms on its own clock before reconnecting; nothing
            // announces either moment.
            #expect(
                await eventually(within: .seconds(20)) {
                    await cache.response(forKey: "k") != nil
                })
        }
    }
}
