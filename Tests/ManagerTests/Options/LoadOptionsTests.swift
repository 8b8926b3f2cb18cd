import Dispatch
import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@Suite("Manager: load options", .timeLimit(.minutes(1)))
struct LoadOptionsTests {
    @Test("fromCacheOnly: a miss fails with notCached and asks for no download; a disk hit answers")
    func fromCacheOnly() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("badge.png"), options: [.fromCacheOnly])
        let miss = await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) }
        guard case .notCached? = miss.error else {
            Issue.record("expected notCached, got \(miss)")
            return
        }
        #expect(fixture.downloader.downloads.isEmpty)
        fixture.disk.put(Pictures.badge, forKey: request.dataKey)
        let fromDisk = try await manager.response(for: request)
        #expect(fromDisk.source == .disk)
        #expect(fixture.downloader.downloads.isEmpty)
    }

    @Test("fromLoaderOnly downloads even when memory has the image")
    func fromLoaderOnly() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        _ = try await manager.image(for: fixture.url("badge.png"))
        let again = try await manager.response(for: ImageRequest(url: fixture.url("badge.png"), options: [.fromLoaderOnly]))
        #expect(again.source == .network)
        #expect(fixture.downloader.downloads.count == 2)
    }

    @Test("memoryCacheOnly writes nothing to disk; waitForCacheStore has the entry there on completion")
    func diskOrNot() async throws {
        let fixture = ScriptedFixture(
            ScriptedDownloader { request in
                .body(Pictures.byName[request.url.lastPathComponent]!, headers: ["ETag": "\"1\"", "Cache-Control": "max-age=3600"])
            })
        let manager = fixture.manager()
        let memoryOnly = ImageRequest(url: fixture.url("badge.png"), options: [.memoryCacheOnly])
        _ = try await manager.response(for: memoryOnly)
        await manager.flushPendingWrites()
        #expect(fixture.disk[memoryOnly.dataKey] == nil)
        #expect(manager.cachedImage(for: memoryOnly) != nil)

        let stored = ImageRequest(url: fixture.url("photo.jpg"), options: [.waitForCacheStore])
        _ = try await manager.response(for: stored)
        let entry = fixture.disk[stored.dataKey]
        #expect(entry?.data == Pictures.photo)
        #expect(entry?.metadata.etag == "\"1\"")
        #expect(entry?.metadata.maxAge == 3600)
    }

    @Test("without waitForCacheStore the disk write waits while loads run, is found meanwhile, and happens when they end")
    func diskWriteOffThePath() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let running = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: running.handler)
        let held = try await fixture.downloader.download(at: 0)

        let request = ImageRequest(url: fixture.url("photo.jpg"))
        async let photo = manager.response(for: request)
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.photo))
        _ = try await photo
        #expect(fixture.disk[request.dataKey] == nil, "not written while a load runs")
        let thumbnail = ImageRequest(url: request.url, options: [.fromCacheOnly], context: .init(thumbnailPixelSize: 32))
        let waiting = try await manager.response(for: thumbnail)
        #expect(waiting.source == .disk, "bytes waiting for the disk are found as if written")
        #expect(waiting.image?.size == PixelSize(width: 32, height: 24))

        held.reply(.body(Pictures.badge))
        _ = try await running.result().get()
        await fixture.disk.stored(request.dataKey)
        await fixture.disk.stored(ImageRequest(url: fixture.url("badge.png")).dataKey)
        #expect(fixture.disk[request.dataKey]?.data == Pictures.photo)
        #expect(fixture.downloader.downloads.count == 2)
        withExtendedLifetime(token) {}
    }

    @Test("flushPendingWrites returns once every waiting disk write is done")
    func flush() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let requests = ["photo.jpg", "badge.png", "animation.gif"].map { ImageRequest(url: fixture.url($0)) }
        for request in requests { _ = try await manager.response(for: request) }
        await manager.flushPendingWrites()
        #expect(fixture.disk.count == 3)
        for request in requests {
            #expect(fixture.disk[request.dataKey] != nil, "\(request.url)")
        }
        await manager.flushPendingWrites()  // nothing waiting: returns at once
    }

    @Test("returnDataWithoutDecoding gives the bytes, no image, and keeps nothing in memory")
    func dataOnly() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("corrupt.jpg"), options: [.returnDataWithoutDecoding])
        let response = try await manager.response(for: request)
        #expect(response.image == nil)
        #expect(response.data == Pictures.corrupt, "not decoded, so not refused")
        #expect(manager.cachedImage(for: request) == nil)
    }

    @Test("firstFrameOnly decodes one frame of an animated GIF, and is cached apart from the whole")
    func firstFrame() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let whole = try await manager.image(for: fixture.url("animation.gif"))
        let first = try await manager.image(for: fixture.url("animation.gif"), options: [.firstFrameOnly])
        #expect(whole.frames.count == 5)
        #expect(first.frames.count == 1)
        #expect(first.bitmap == whole.bitmap)
        #expect(manager.cachedImage(for: ImageRequest(url: fixture.url("animation.gif")))?.frames.count == 5)
    }

    @Test("scaleDownLargeImages decodes the longer side to at most 4096 pixels")
    func scaleDown() async throws {
        let wide = try JPEGFixtureEncoder(quality: 70).encode(SyntheticImage.photo(width: 8192, height: 64))
        let fixture = ScriptedFixture(.serving(["wide.jpg": wide]))
        let manager = fixture.manager()
        let image = try await manager.image(for: fixture.url("wide.jpg"), options: [.scaleDownLargeImages])
        #expect(image.size == PixelSize(width: ImageLoadOptions.scaleDownPixelLimit, height: 32))
        #expect(image.sourceSize == PixelSize(width: 8192, height: 64))
    }

    @Test("the download is asked for with the load's priority, progressiveness and headers")
    func downloadRequest() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        _ = try await manager.image(for: fixture.url("photo.jpg"), options: [.highPriority])
        _ = try await manager.image(for: fixture.url("badge.png"), options: [.lowPriority, .progressiveLoad])
        let headers: HTTPHeaderFields = ["Authorization": "Bearer t"]
        _ = try await manager.image(for: ImageRequest(url: fixture.url("animation.gif"), context: .init(headers: headers)))
        let requests = fixture.downloader.downloads.map(\.request)
        #expect(requests.map(\.effectivePriority) == [.high, .low, .normal])
        #expect(requests.map { $0.options.contains(.progressive) } == [false, true, false])
        #expect(requests[2].headers["Authorization"] == "Bearer t")
    }

    @Test("progressiveLoad makes partial images of the body handed out, transformed and marked partial, before the result")
    func progressive() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(
            url: fixture.url("progressive.jpg"), options: [.progressiveLoad],
            context: .init(transformers: [ResizeTransformer(width: 160, height: 160)]))
        let log = LoadLog()
        let token = manager.loadImage(with: request, handler: log.handler)
        let download = try await fixture.downloader.download(at: 0)
        #expect(download.request.options.contains(.progressive))
        let body = Pictures.progressivePhoto
        download.received(body.prefix(body.count * 2 / 3))
        await log.partialArrived()
        download.reply(.body(body))
        let final = try await log.result().get()
        withExtendedLifetime(token) {}

        let partials = log.partialImages
        #expect(!partials.isEmpty)
        let allMarkedAndTransformed = partials.allSatisfy { $0.isPartial && $0.size == PixelSize(width: 160, height: 120) }
        #expect(allMarkedAndTransformed)
        #expect(log.all.last?.isCompletion == true, "partials come before the result")
        #expect(log.completions == 1)
        #expect(final.image?.isPartial == false)
        #expect(final.image?.size == PixelSize(width: 160, height: 120))
    }

    @Test("the callback API delivers on the queue asked for, and a memory hit completes before loadImage returns")
    func callbackDelivery() async throws {
        let fixture = ScriptedFixture.serving()
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
