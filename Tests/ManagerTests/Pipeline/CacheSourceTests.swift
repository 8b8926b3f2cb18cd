import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@Suite("Manager: where an image comes from")
struct CacheSourceTests {
    @Test("cold from the network, then warm from memory, then from disk in a new manager: one request in all")
    func coldWarmDisk() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager { $0.manager.cacheStoreFailureHandler = nil }
            let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])

            let cold = try await manager.response(for: request)
            #expect(cold.source == .network)
            #expect(cold.image?.size == PixelSize(width: 320, height: 240))
            #expect(cold.data == Pictures.photo)
            #expect(cold.httpResponse?.statusCode == 200)
            #expect(cold.metrics != nil)

            let warm = try await manager.response(for: request)
            #expect(warm.source == .memory)
            #expect(warm.image?.bitmap == cold.image?.bitmap)
            #expect(manager.cachedImage(for: request) != nil)

            let other = fixture.manager()
            #expect(other.cachedImage(for: request) == nil, "a new manager starts with an empty memory cache")
            let fromDisk = try await other.response(for: request)
            #expect(fromDisk.source == .disk)
            #expect(fromDisk.image?.bitmap == cold.image?.bitmap)
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("refreshCached revalidates with the stored ETag: 304 keeps the copy; without it the cache answers")
    func revalidated() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("badge.png")
            _ = try await manager.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))

            let refreshed = try await manager.response(for: ImageRequest(url: url, options: [.refreshCached]))
            #expect(refreshed.source == .revalidated)
            #expect(refreshed.httpResponse?.statusCode == 304)
            #expect(refreshed.image?.size == PixelSize(width: 64, height: 48))
            #expect(refreshed.data == Pictures.badge)
            let conditional = fixture.server.requests.last { $0.path == "/files/badge.png" }
            #expect(conditional?.headers.contains { $0.name.lowercased() == "if-none-match" } == true)
            #expect(fixture.hits("badge.png") == 2)
        }
    }

    @Test("a changed file after refreshCached replaces the copy: 200 and the new bytes")
    func refreshedWithNewBytes() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("swap.png")
            try Pictures.badge.write(to: fixture.root.appendingPathComponent("swap.png"))
            _ = try await manager.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
            // A new file: new size, new modification time, so a new ETag.
            try await Task.sleep(for: .milliseconds(1100))
            try Pictures.photo.write(to: fixture.root.appendingPathComponent("swap.png"))

            let refreshed = try await manager.response(for: ImageRequest(url: url, options: [.refreshCached, .waitForCacheStore]))
            #expect(refreshed.source == .network)
            #expect(refreshed.image?.size == PixelSize(width: 320, height: 240))
            let fromDisk = try await fixture.manager().response(for: ImageRequest(url: url))
            #expect(fromDisk.data == Pictures.photo, "the disk copy was replaced")
        }
    }

    @Test("a corrupt body is a decoding error, and nothing is cached, in memory or on disk")
    func corruptBody() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("corrupt.jpg"), options: [.waitForCacheStore])
            let result = await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) }
            guard case .decoding(let error)? = result.error else {
                Issue.record("expected a decoding error, got \(result)")
                return
            }
            #expect(error.format == .jpeg)
            #expect(manager.cachedImage(for: request) == nil)
            #expect(await manager.diskCache?.response(forKey: request.dataKey) == nil)
        }
    }

    @Test("bytes on disk that no longer decode are dropped and fetched again")
    func corruptDiskEntry() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("photo.jpg"))
            try await manager.diskCache?.store(Pictures.corrupt, metadata: .init(), forKey: request.dataKey)
            let response = try await manager.response(for: request)
            #expect(response.source == .network)
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }
}

