import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@Suite("Manager: load options")
struct LoadOptionsTests {
    @Test("fromCacheOnly: a miss fails with notCached and sends nothing; a disk hit answers")
    func fromCacheOnly() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("badge.png"), options: [.fromCacheOnly])
            let miss = await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) }
            guard case .notCached? = miss.error else {
                Issue.record("expected notCached, got \(miss)")
                return
            }
            #expect(fixture.hits("badge.png") == 0)
            _ = try await manager.response(for: ImageRequest(url: fixture.url("badge.png"), options: [.waitForCacheStore]))
            let fromDisk = try await fixture.manager().response(for: request)
            #expect(fromDisk.source == .disk)
        }
    }

    @Test("fromLoaderOnly downloads even when memory has the image")
    func fromLoaderOnly() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            _ = try await manager.image(for: fixture.url("badge.png"))
            let again = try await manager.response(for: ImageRequest(url: fixture.url("badge.png"), options: [.fromLoaderOnly]))
            #expect(again.source == .network)
            #expect(fixture.hits("badge.png") == 2)
        }
    }

    @Test("memoryCacheOnly writes nothing to disk; waitForCacheStore has the file there on completion")
    func diskOrNot() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let memoryOnly = ImageRequest(url: fixture.url("badge.png"), options: [.memoryCacheOnly])
            _ = try await manager.response(for: memoryOnly)
            try await Task.sleep(for: .milliseconds(200))
            #expect(await manager.diskCache?.response(forKey: memoryOnly.dataKey) == nil)
            #expect(manager.cachedImage(for: memoryOnly) != nil)

            let stored = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
            _ = try await manager.response(for: stored)
            let entry = await manager.diskCache?.response(forKey: stored.dataKey)
            #expect(entry?.data == Pictures.photo)
            #expect(entry?.metadata.etag != nil)
            #expect(entry?.metadata.maxAge == 3600)
        }
    }

    @Test("without waitForCacheStore the disk write still happens, after the load")
    func diskWriteOffThePath() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("photo.jpg"))
            _ = try await manager.response(for: request)
            let written = try await eventually { manager.diskCache?.response(forKey: request.dataKey) != nil }
            #expect(written)
        }
    }

    @Test("flushPendingWrites returns once every waiting disk write is done")
    func flush() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let requests = ["photo.jpg", "badge.png", "animation.gif"].map { ImageRequest(url: fixture.url($0)) }
            for request in requests { _ = try await manager.response(for: request) }
            await manager.flushPendingWrites()
            #expect(manager.diskCache?.count == 3)
            for request in requests {
                let stored = await manager.diskCache?.response(forKey: request.dataKey)
                #expect(stored != nil, "\(request.url)")
            }
            await manager.flushPendingWrites()  // nothing waiting: returns at once
        }
    }

    @Test("bytes waiting for the disk are found by the next load, as if already written")
    func waitingBytesAreFound() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            _ = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg")))
            let thumbnail = ImageRequest(url: fixture.url("photo.jpg"), options: [.fromCacheOnly], context: .init(thumbnailPixelSize: 32))
            let response = try await manager.response(for: thumbnail)
            #expect(response.source == .disk)
            #expect(response.image?.size == PixelSize(width: 32, height: 24))
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("returnDataWithoutDecoding gives the bytes, no image, and keeps nothing in memory")
    func dataOnly() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("corrupt.jpg"), options: [.returnDataWithoutDecoding])
            let response = try await manager.response(for: request)
            #expect(response.image == nil)
            #expect(response.data == Pictures.corrupt, "not decoded, so not refused")
            #expect(manager.cachedImage(for: request) == nil)
        }
    }

    @Test("firstFrameOnly decodes one frame of an animated GIF, and is cached apart from the whole")
    func firstFrame() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let whole = try await manager.image(for: fixture.url("animation.gif"))
            let first = try await manager.image(for: fixture.url("animation.gif"), options: [.firstFrameOnly])
            #expect(whole.frames.count == 5)
            #expect(first.frames.count == 1)
            #expect(first.bitmap == whole.bitmap)
        }
    }

    @Test("scaleDownLargeImages decodes the longer side to at most 4096 pixels")
    func scaleDown() async throws {
        try await withFixture { fixture in
            let wide = try JPEGFixtureEncoder(quality: 70).encode(SyntheticImage.photo(width: 8192, height: 64))
            try wide.write(to: fixture.root.appendingPathComponent("wide.jpg"))
            let manager = fixture.manager()
            let image = try await manager.image(for: fixture.url("wide.jpg"), options: [.scaleDownLargeImages])
            #expect(image.size == PixelSize(width: ImageLoadOptions.scaleDownPixelLimit, height: 32))
            #expect(image.sourceSize == PixelSize(width: 8192, height: 64))
        }
    }

    /// Through the callback API, whose handler records every event as it is delivered
    /// (`events(for:)` hands a consumer that falls behind only the newest partial image).
    @Test("progressiveLoad delivers partial images before the final image")
    func progressive() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let chunk = Pictures.progressivePhoto.count / 12
            let request = ImageRequest(
                url: fixture.url("progressive.jpg", query: "chunk=\(chunk)&interval_ms=100"), options: [.progressiveLoad])
            let log = LoadLog()
            let token = manager.loadImage(with: request, handler: log.handler)
            let final = try await log.result().get()
            withExtendedLifetime(token) {}
            let events = log.all
            let partials = log.partialImages
            #expect(!partials.isEmpty)
            let allMarkedPartial = partials.allSatisfy(\.isPartial)
            #expect(allMarkedPartial)
            #expect(events.last?.isCompletion == true, "partials come before the result")
            #expect(log.completions == 1)
            #expect(final.image?.isPartial == false)
            #expect(final.image?.size == PixelSize(width: 320, height: 240))
        }
    }

    @Test("the callback API delivers on the queue asked for, and a memory hit completes before loadImage returns")
    func callbackDelivery() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let queue = DispatchQueue(label: "test.delivery")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let onQueue = LoadLog()
            let request = ImageRequest(url: fixture.url("badge.png"))
            manager.loadImage(with: request, delivery: .queue(queue)) { event in
                precondition(DispatchQueue.getSpecific(key: key) == true, "delivered off the asked queue")
                onQueue.handler(event)
            }
            let first = try await onQueue.result().get()
            #expect(first.source == .network)

            let hit = LoadLog()
            let token = manager.loadImage(with: request, handler: hit.handler)
            #expect(hit.completions == 1, "completed before loadImage returned")
            #expect(token.key == nil)
        }
    }
}
