import Foundation
import Testing
import WebImage
import WebImageTestSupport

@Suite("Manager against the loopback server: options", .timeLimit(.minutes(1)))
struct LoopbackOptionsTests {
    @Test("waitForCacheStore has the server's bytes, ETag and max-age on disk when the load completes")
    func waitForCacheStore() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let stored = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
            _ = try await manager.response(for: stored)
            let entry = await manager.diskCache?.response(forKey: stored.dataKey)
            #expect(entry?.data == Pictures.photo)
            #expect(entry?.metadata.etag != nil)
            #expect(entry?.metadata.maxAge == 3600)
        }
    }

    /// The drip here is what makes the body arrive in pieces for the manager's
    /// partial images, not a wait: the test awaits the result.
    @Test("progressiveLoad delivers partial images, decoded by the manager from the body as it arrives, before the final image")
    func progressive() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let chunk = Pictures.progressivePhoto.count / 12
            let request = ImageRequest(
                url: fixture.url("progressive.jpg", query: "chunk=\(chunk)&interval_ms=30"), options: [.progressiveLoad])
            let log = LoadLog()
            let token = manager.loadImage(with: request, handler: log.handler)
            let final = try await log.result().get()
            withExtendedLifetime(token) {}
            let partials = log.partialImages
            #expect(!partials.isEmpty)
            let allMarkedPartial = partials.allSatisfy(\.isPartial)
            #expect(allMarkedPartial)
            #expect(log.all.last?.isCompletion == true, "partials come before the result")
            #expect(log.completions == 1)
            #expect(final.image?.isPartial == false)
            #expect(final.image?.size == PixelSize(width: 320, height: 240))
        }
    }
}
