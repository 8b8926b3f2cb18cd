import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

@Suite("The cached-response handler decides what the disk cache keeps, against the loopback server")
struct CachedResponseHandlerTests {
    @Test("a changed copy is what the disk keeps: here a longer lifetime than the server gave")
    func storedModified() async throws {
        try await withFixture { fixture in
            let seen = Locked<[String]>([])
            let manager = fixture.manager { configuration in
                configuration.manager.cachedResponseHandler = { proposed, response in
                    seen.withLock { $0.append("\(response.statusCode) max-age=\(proposed.metadata.maxAge ?? -1)") }
                    var kept = proposed
                    kept.metadata.headers.set("Cache-Control", "max-age=86400")
                    return kept
                }
            }
            let request = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
            let response = try await manager.response(for: request)
            #expect(response.image != nil)
            #expect(seen.withLock { $0 } == ["200 max-age=3600"], "the handler saw the response as the rules would store it")
            let entry = await manager.diskCache?.response(forKey: request.dataKey)
            #expect(entry?.data == Pictures.photo)
            #expect(entry?.metadata.maxAge == 86400)
        }
    }

    @Test("nil stores nothing, and the load still gets its image; a load's own handler replaces the manager's")
    func notStored() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager { configuration in
                configuration.manager.cachedResponseHandler = { proposed, _ in proposed }
            }
            let refused = ImageRequest(
                url: fixture.url("badge.png"), options: [.waitForCacheStore],
                context: ImageLoadContext(cachedResponseHandler: { _, _ in nil }))
            let response = try await manager.response(for: refused)
            #expect(response.image?.size == PixelSize(width: 64, height: 48))
            #expect(await manager.diskCache?.response(forKey: refused.dataKey) == nil)
            let kept = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
            _ = try await manager.response(for: kept)
            #expect(await manager.diskCache?.response(forKey: kept.dataKey) != nil)
        }
    }
}
