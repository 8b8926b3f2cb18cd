import Foundation
import WebImageSharedCache
import WebImageTestSupport

/// Redis nodes started for one test, and shared caches over them with the tests' short
/// timeouts (a paused node costs 1 s, room for a loaded machine; a 300 ms backoff).
struct SharedNodes {
    let servers: [RedisServer]

    var urls: [String] { servers.map(\.url) }

    /// A cache over every node: a fleet member of its own (its own connections and leases).
    func cache(_ change: (inout SharedCache.Configuration) -> Void = { _ in }) throws -> SharedCache {
        var configuration = SharedCache.Configuration(nodes: try urls.map { try RedisNodeAddress($0) })
        configuration.commandTimeout = .seconds(1)
        configuration.connectTimeout = .seconds(2)
        configuration.initialBackoff = .milliseconds(300)
        configuration.maximumBackoff = .milliseconds(600)
        configuration.leaseDuration = .seconds(30)
        change(&configuration)
        return try SharedCache(configuration: configuration)
    }
}

/// Whether the tests that need redis-server run here.
let redisInstalled = RedisServer.program != nil

/// Runs `body` with `count` fresh redis-server processes, stopped after.
func withNodes<R>(_ count: Int = 1, arguments: [String] = [], _ body: (SharedNodes) async throws -> R) async throws -> R {
    let servers = try (0..<count).map { _ in try RedisServer(arguments: arguments) }
    defer { for server in servers { server.stop() } }
    return try await body(SharedNodes(servers: servers))
}
