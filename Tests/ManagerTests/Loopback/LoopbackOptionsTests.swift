import Dispatch
import Foundation
import Synchronization
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

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

    @Test("fromCacheOnly sends no request on a miss; fromLoaderOnly sends one though memory has the image")
    func cacheOrLoaderOnly() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("badge.png")
            let miss = await outcome { () async throws(ImageLoadError) in
                try await manager.response(for: ImageRequest(url: url, options: [.fromCacheOnly]))
            }
            guard case .notCached? = miss.error else {
                Issue.record("expected notCached, got \(miss)")
                return
            }
            #expect(fixture.hits("badge.png") == 0)
            _ = try await manager.image(for: url)
            let again = try await manager.response(for: ImageRequest(url: url, options: [.fromLoaderOnly]))
            #expect(again.source == .network)
            #expect(fixture.hits("badge.png") == 2)
        }
    }

    @Test("retryFailed asks the server again for a URL remembered as failed")
    func retryFailed() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("missing.png")
            _ = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            let retried = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url, options: [.retryFailed]) }
            #expect(retried.error.flatMap { if case .download(let error) = $0 { error.statusCode } else { nil } } == 404)
            #expect(fixture.hits("missing.png") == 2)
        }
    }

    @Test("returnDataWithoutDecoding hands over the server's bytes undecoded; the load's headers are the ones the server receives")
    func dataOnlyAndHeaders() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(
                url: fixture.server.url("/headers"), options: [.returnDataWithoutDecoding], context: .init(headers: ["X-Load": "mine"]))
            let response = try await manager.response(for: request)
            #expect(response.image == nil)
            let lines = String(decoding: response.data ?? Data(), as: UTF8.self).lowercased().split(separator: "\n")
            #expect(lines.contains("x-load: mine"))
            #expect(manager.cachedImage(for: request) == nil)
        }
    }

    @Test("firstFrameOnly decodes one frame of the served GIF; scaleDownLargeImages decodes a served 8192-pixel JPEG to 4096")
    func decodeShaping() async throws {
        try await withFixture { fixture in
            let wide = try JPEGFixtureEncoder(quality: 70).encode(SyntheticImage.photo(width: 8192, height: 64))
            try wide.write(to: fixture.root.appendingPathComponent("wide.jpg"))
            let manager = fixture.manager()
            let whole = try await manager.image(for: fixture.url("animation.gif"))
            let first = try await manager.image(for: fixture.url("animation.gif"), options: [.firstFrameOnly])
            #expect(whole.frames.count == 5)
            #expect(first.frames.count == 1)
            #expect(first.bitmap == whole.bitmap)
            #expect(fixture.hits("animation.gif") == 1, "the single frame is decoded from the kept bytes")

            let scaled = try await manager.image(for: fixture.url("wide.jpg"), options: [.scaleDownLargeImages])
            #expect(scaled.size == PixelSize(width: ImageLoadOptions.scaleDownPixelLimit, height: 32))
            #expect(scaled.sourceSize == PixelSize(width: 8192, height: 64))
        }
    }

    @Test("a transformed load and the original of one URL: one request, each image kept under its own key")
    func transformed() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("photo.jpg")
            let square = ImageRequest(url: url, context: .init(transformers: [ResizeTransformer(width: 100, height: 100, mode: .fill)]))
            let transformed = try await manager.image(for: square)
            let original = try await manager.image(for: url)
            #expect(transformed.size == PixelSize(width: 100, height: 100))
            #expect(original.size == PixelSize(width: 320, height: 240))
            #expect(manager.cachedImage(for: square)?.size == PixelSize(width: 100, height: 100))
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("the callback API delivers a network load on the queue asked for, and a memory hit completes before loadImage returns")
    func callbackDelivery() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let queue = DispatchQueue(label: "test.delivery")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let offQueue = Locked(0)
            let onQueue = LoadLog()
            let request = ImageRequest(url: fixture.url("badge.png"))
            manager.loadImage(with: request, delivery: .queue(queue)) { event in
                if DispatchQueue.getSpecific(key: key) != true { offQueue.withLock { $0 += 1 } }
                onQueue.handler(event)
            }
            let first = try await onQueue.result().get()
            #expect(first.source == .network)
            #expect(offQueue.withLock { $0 } == 0, "every event on the asked queue")

            let hit = LoadLog()
            let token = manager.loadImage(with: request, handler: hit.handler)
            #expect(hit.completions == 1, "completed before loadImage returned")
            #expect(token.key == nil)
            #expect(fixture.hits("badge.png") == 1)
        }
    }
}
