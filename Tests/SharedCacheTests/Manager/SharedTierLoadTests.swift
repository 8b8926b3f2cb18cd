import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageSharedCache
import WebImageTestServer
import WebImageTestSupport

/// The manager with a shared tier: loads by several managers (each its own member of the
/// fleet, with its own disk cache) against a real origin and real nodes.
@Suite("Manager with a shared tier", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedTierLoadTests {
    static let photos = (0..<20).map { index in
        try! JPEGFixtureEncoder(quality: 85).encode(SyntheticImage.photo(width: 96, height: 64, seed: UInt64(index)))
    }

    /// The photos served as `/files/p<N>.jpg`, and a way to make fleet members.
    struct Fleet {
        let server: LoopbackServer
        let nodes: SharedNodes

        func url(_ index: Int) -> URL { server.url("/files/p\(index).jpg") }

        func hits(_ index: Int) -> Int { server.requests.filter { $0.path == "/files/p\(index).jpg" }.count }

        /// A member: its own disk cache folder, memory cache and shared-cache connections.
        func member(disk: TemporaryDirectory, _ change: (inout SharedCache.Configuration) -> Void = { _ in }) throws -> ImageManager {
            var configuration = WebImageConfiguration(cacheDirectory: disk.url)
            configuration.manager.sharedCache = try nodes.cache(change)
            return ImageManager(configuration: configuration)
        }
    }

    func withFleet<R>(nodes count: Int = 2, _ body: (Fleet) async throws -> R) async throws -> R {
        let root = try TemporaryDirectory()
        for (index, photo) in Self.photos.enumerated() { try photo.write(to: root.url.appendingPathComponent("p\(index).jpg")) }
        return try await withNodes(count) { nodes in
            try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
                try await body(Fleet(server: server, nodes: nodes))
            }
        }
    }

    @Test("a second server's load is a shared hit (no origin request), then a disk hit from its own copy")
    func secondServerHitsTheTier() async throws {
        try await withFleet { fleet in
            let (diskA, diskB) = (try TemporaryDirectory(), try TemporaryDirectory())
            let first = try await fleet.member(disk: diskA).response(for: ImageRequest(url: fleet.url(0), options: [.waitForCacheStore]))
            #expect(first.source == .network)
            let second = try await fleet.member(disk: diskB).response(for: ImageRequest(url: fleet.url(0), options: [.waitForCacheStore]))
            #expect(second.source == .shared)
            #expect(second.image?.size == first.image?.size)
            #expect(fleet.hits(0) == 1, "the second server asked the origin")
            // The shared hit was copied to B's disk: a fresh member on that disk reads it there.
            let third = try await fleet.member(disk: diskB).response(for: ImageRequest(url: fleet.url(0)))
            #expect(third.source == .disk)
        }
    }

    @Test("four servers loading the same 20 URLs at once make one origin request per URL")
    func fleetWideCoalescing() async throws {
        try await withFleet(nodes: 3) { fleet in
            let disks = try (0..<4).map { _ in try TemporaryDirectory() }
            let members = try disks.map { try fleet.member(disk: $0) }
            let sources = try await withThrowingTaskGroup(of: ImageSource.self) { group in
                for member in members {
                    for index in Self.photos.indices {
                        group.addTask { try await member.response(for: ImageRequest(url: fleet.url(index))).source }
                    }
                }
                return try await group.reduce(into: [ImageSource]()) { $0.append($1) }
            }
            #expect(sources.count == 80)
            #expect(sources.filter { $0 == .network }.count == 20, "\(sources)")
            #expect(sources.filter { $0 == .shared }.count == 60)
            for index in Self.photos.indices { #expect(fleet.hits(index) == 1, "p\(index).jpg") }
        }
    }

    @Test("with every node down, loads still succeed from the origin")
    func nodesDown() async throws {
        try await withFleet { fleet in
            for server in fleet.nodes.servers { server.stop() }
            let member = try fleet.member(disk: try TemporaryDirectory())
            for index in 0..<5 {
                let response = try await member.response(for: ImageRequest(url: fleet.url(index)))
                #expect(response.source == .network)
            }
        }
    }

    @Test("a response that may not be stored stays out of the tier, and its lease is given up at once")
    func noStore() async throws {
        try await withFleet { fleet in
            let url = fleet.server.url("/cache/p1.jpg?cc=no-store")
            let first = try fleet.member(disk: try TemporaryDirectory()) { $0.leaseDuration = .seconds(60) }
            let second = try fleet.member(disk: try TemporaryDirectory()) { $0.leaseDuration = .seconds(60) }
            #expect(try await first.response(for: ImageRequest(url: url)).source == .network)
            let started = ContinuousClock.now
            #expect(try await second.response(for: ImageRequest(url: url)).source == .network)
            #expect(ContinuousClock.now - started < .seconds(30), "the second server waited for a lease nobody held")
            let stats = try fleet.nodes.cache().statisticsNow()
            #expect(stats.map(\.entries).reduce(0, +) == 0)
        }
    }
}
