import Foundation
import Testing
import WebImage
import WebImageTestSupport

@Suite("Manager: where an image comes from", .timeLimit(.minutes(1)))
struct CacheSourceTests {
    @Test("cold from the network, then warm from memory, then from disk in a new manager: one download in all")
    func coldWarmDisk() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])

        let cold = try await manager.response(for: request)
        #expect(cold.source == .network)
        #expect(cold.image?.size == PixelSize(width: 320, height: 240))
        #expect(cold.data == Pictures.photo)
        #expect(cold.httpResponse?.statusCode == 200)

        let warm = try await manager.response(for: request)
        #expect(warm.source == .memory)
        #expect(warm.image?.bitmap == cold.image?.bitmap)

        let other = fixture.manager()
        #expect(other.cachedImage(for: request) == nil, "a new manager starts with an empty memory cache")
        let fromDisk = try await other.response(for: request)
        #expect(fromDisk.source == .disk)
        #expect(fromDisk.image?.bitmap == cold.image?.bitmap)
        #expect(fixture.downloader.downloads.count == 1)
    }

    @Test("refreshCached asks with the stored validators; a 304 keeps the copy and refreshes its freshness")
    func revalidated() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("badge.png"), options: [.waitForCacheStore])
        async let stored = manager.response(for: request)
        try await fixture.downloader.download(at: 0).reply(
            .body(Pictures.badge, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]))
        _ = try await stored

        async let refreshed = manager.response(for: ImageRequest(url: request.url, options: [.refreshCached, .waitForCacheStore]))
        let conditional = try await fixture.downloader.download(at: 1)
        #expect(conditional.request.options.contains(.revalidate))
        #expect(conditional.request.validators?.etag == "\"v1\"")
        conditional.reply(.notModified(headers: ["Cache-Control": "max-age=3600"]))
        let response = try await refreshed
        #expect(response.source == .revalidated)
        #expect(response.httpResponse?.statusCode == 304)
        #expect(response.image?.size == PixelSize(width: 64, height: 48))
        #expect(response.data == Pictures.badge)
        let entry = fixture.disk[request.dataKey]
        #expect(entry?.metadata.etag == "\"v1\"")
        #expect(entry?.metadata.maxAge == 3600, "the 304's max-age wins")
    }

    @Test("refreshCached answered with 200 and new bytes replaces the copy in memory and on disk")
    func refreshedWithNewBytes() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let url = fixture.url("swap.png")
        async let stored = manager.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
        try await fixture.downloader.download(at: 0).reply(.body(Pictures.badge, headers: ["ETag": "\"small\""]))
        _ = try await stored

        async let refreshed = manager.response(for: ImageRequest(url: url, options: [.refreshCached, .waitForCacheStore]))
        try await fixture.downloader.download(at: 1).reply(
            .body(Pictures.photo, headers: ["ETag": "\"big\"", "Cache-Control": "max-age=60"]))
        let response = try await refreshed
        #expect(response.source == .network)
        #expect(response.image?.size == PixelSize(width: 320, height: 240))
        #expect(manager.cachedImage(for: ImageRequest(url: url))?.size == PixelSize(width: 320, height: 240))
        let fromDisk = try await fixture.manager().response(for: ImageRequest(url: url))
        #expect(fromDisk.source == .disk)
        #expect(fromDisk.data == Pictures.photo, "the disk copy was replaced")
    }

    @Test("a corrupt body is a decoding error, and nothing is cached, in memory or on disk")
    func corruptBody() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("corrupt.jpg"), options: [.waitForCacheStore])
        let result = await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) }
        guard case .decoding(let error, _, _)? = result.error else {
            Issue.record("expected a decoding error, got \(result)")
            return
        }
        #expect(error.format == .jpeg)
        #expect(manager.cachedImage(for: request) == nil)
        await manager.flushPendingWrites()
        #expect(fixture.disk.count == 0)
    }

    @Test("bytes on disk that no longer decode are dropped and fetched again")
    func corruptDiskEntry() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
        fixture.disk.put(Pictures.corrupt, forKey: request.dataKey)
        let response = try await manager.response(for: request)
        #expect(response.source == .network)
        #expect(fixture.downloader.downloads.count == 1)
        #expect(fixture.disk[request.dataKey]?.data == Pictures.photo)
    }

    @Test("Cache-Control: no-store keeps the image in memory and writes nothing to disk")
    func noStore() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("badge.png"), options: [.waitForCacheStore])
        async let response = manager.response(for: request)
        try await fixture.downloader.download(at: 0).reply(.body(Pictures.badge, headers: ["Cache-Control": "no-store"]))
        let loaded = try await response
        #expect(loaded.source == .network)
        await manager.flushPendingWrites()
        #expect(fixture.disk.count == 0)
        #expect(manager.cachedImage(for: request) != nil)
    }
}
