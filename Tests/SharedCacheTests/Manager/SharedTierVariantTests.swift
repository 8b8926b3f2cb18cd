import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageSharedCache
import WebImageTestServer
import WebImageTestSupport

/// Stored variants in the shared tier: a thumbnail one server made is served to another,
/// on another disk, from the tier, without the source's bytes.
@Suite("Manager with a shared tier: stored variants", .enabled(if: redisInstalled, "\(RedisServer.missingMessage)"))
struct SharedTierVariantTests {
    static let photo = try! JPEGFixtureEncoder(quality: 85).encode(SyntheticImage.photo(width: 320, height: 240, seed: 11))

    /// A fleet member on `disk` that stores variants as PNG, with the nodes as its tier.
    private func member(_ nodes: SharedNodes, disk: TemporaryDirectory) throws -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: disk.url)
        configuration.manager.sharedCache = try nodes.cache()
        configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
        return ImageManager(configuration: configuration)
    }

    private func withOrigin<R>(_ body: (LoopbackServer, SharedNodes) async throws -> R) async throws -> R {
        let root = try TemporaryDirectory()
        try Self.photo.write(to: root.url.appendingPathComponent("photo.jpg"))
        return try await withNodes(1) { nodes in
            try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in try await body(server, nodes) }
        }
    }

    private func thumbnail(_ server: LoopbackServer) -> ImageRequest {
        ImageRequest(
            url: server.url("/cache/photo.jpg?cc=max-age%3D600"), options: [.waitForCacheStore],
            context: ImageLoadContext(thumbnailPixelSize: 100))
    }

    @Test("a second server on another disk gets the thumbnail from the tier: no origin request, and the source never fetched")
    func secondServerGetsTheVariant() async throws {
        try await withOrigin { server, nodes in
            let request = thumbnail(server)
            let first = try await member(nodes, disk: try TemporaryDirectory()).response(for: request)
            #expect(first.source == .network)

            let diskB = try TemporaryDirectory()
            let second = try member(nodes, disk: diskB)
            let response = try await second.response(for: request)
            #expect(response.isStoredVariant)
            #expect(response.source == .shared)
            #expect(response.image?.bitmap == first.image?.bitmap)
            #expect(server.requests.count == 1, "one origin request in all")
            let sourceOnB = await second.diskCache?.response(forKey: request.dataKey)
            #expect(sourceOnB == nil, "the source's bytes never came to the second server")
            // The tier's variant was copied to B's disk: a restart there reads it from disk.
            let third = try await member(nodes, disk: diskB).response(for: request)
            #expect(third.isStoredVariant)
            #expect(third.source == .disk)
        }
    }

    @Test("with the node down a thumbnail load is a miss, never a failure: made from the origin")
    func nodeDown() async throws {
        try await withOrigin { server, nodes in
            let manager = try member(nodes, disk: try TemporaryDirectory())
            for node in nodes.servers { node.stop() }
            let response = try await manager.response(for: thumbnail(server))
            #expect(response.source == .network)
            #expect(response.image?.size == PixelSize(width: 100, height: 75))
        }
    }

    @Test("a purge from any member removes the source and its variants from the tier: the next server fetches and renders again")
    func purgeFromTheTier() async throws {
        try await withOrigin { server, nodes in
            let first = try member(nodes, disk: try TemporaryDirectory())
            let small = ImageRequest(
                url: thumbnail(server).url, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: 50))
            _ = try await first.response(for: thumbnail(server))
            _ = try await first.response(for: small)
            let tier = try nodes.cache()
            defer { tier.shutdown() }
            let variant = try #require(ImageVariantKey(request: thumbnail(server), encoderIdentifier: "png"))
            #expect(await tier.response(forKey: variant.cacheKey) != nil)

            let summary = try await member(nodes, disk: try TemporaryDirectory()).purge(source: thumbnail(server).url)
            #expect(summary == SourcePurgeSummary(variantsOnDisk: 0, variantsInSharedCache: 2))
            #expect(await tier.response(forKey: variant.cacheKey) == nil)
            #expect(await tier.response(forKey: thumbnail(server).dataKey) == nil, "the source's bytes are gone too")

            let response = try await member(nodes, disk: try TemporaryDirectory()).response(for: thumbnail(server))
            #expect(response.source == .network)
            #expect(!response.isStoredVariant, "made from the source again")
            #expect(server.requests.count == 2, "one more origin request")
        }
    }
}
