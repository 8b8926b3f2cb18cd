import Foundation
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency

@Suite("Manager: sharing work between loads", .timeLimit(.minutes(1)))
struct CoalescingTests {
    @Test("twenty loads of one image: the downloader is asked once; progress and the image reach all twenty")
    func oneDownload() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        let logs = (0..<20).map { _ in LoadLog() }
        let tokens = logs.map { manager.loadImage(with: request, handler: $0.handler) }

        let download = try await fixture.downloader.download(at: 0)
        download.progress(received: 1000, expected: Int64(Pictures.photo.count))
        download.reply(.body(Pictures.photo))
        var coalesced: [Bool] = []
        for log in logs {
            let response = try await log.result().get()
            #expect(response.source == .network)
            #expect(response.image?.size == PixelSize(width: 320, height: 240))
            #expect(log.progress == [1000])
            coalesced.append(response.isCoalesced)
        }
        #expect(fixture.downloader.downloads.count == 1)
        #expect(coalesced == [false] + Array(repeating: true, count: 19), "only the load that started the run asked for it")
        withExtendedLifetime(tokens) {}
    }

    @Test("loads under one URL policy share a run; a load under another policy has a run of its own")
    func oneRunPerURLPolicy() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let url = fixture.url("photo.jpg")
        let narrow = URLPolicy(allowedHosts: ["images.test"])
        let wider = URLPolicy(allowedHosts: ["images.test", "cdn.images.test"])
        let logs = (0..<3).map { _ in LoadLog() }
        let tokens = zip([narrow, narrow, wider], logs).map { policy, log in
            manager.loadImage(with: ImageRequest(url: url, context: .init(urlPolicy: policy)), handler: log.handler)
        }
        for download in try await fixture.downloader.waitForDownloads(2) { download.reply(.body(Pictures.photo)) }

        var coalesced: [Bool] = []
        for log in logs { coalesced.append(try await log.result().get().isCoalesced) }
        #expect(coalesced == [false, true, false])
        #expect(fixture.downloader.downloads.count == 2)
        withExtendedLifetime(tokens) {}
    }

    @Test("a load with a progress handler that joins an async load's run gets the download's progress from then on")
    func progressForALoadThatJoins() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        // The async API takes no progress: the run publishes none until a load that does joins.
        let first = Task { await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) } }
        let download = try await fixture.downloader.download(at: 0)
        download.progress(received: 500, expected: Int64(Pictures.photo.count))
        let log = LoadLog()
        let token = manager.loadImage(with: request, handler: log.handler)
        download.progress(received: 1000, expected: Int64(Pictures.photo.count))
        download.reply(.body(Pictures.photo))

        #expect(try await log.result().get().source == .network)
        #expect(log.progress == [1000])
        #expect(try await first.value.get().source == .network)
        #expect(fixture.downloader.downloads.count == 1)
        withExtendedLifetime(token) {}
    }

    @Test("a thumbnail and the full image of one URL ask for one download key (the downloader shares it) and decode apart")
    func variantsShareTheDownloadKey() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let url = fixture.url("photo.jpg")
        async let full = manager.image(for: ImageRequest(url: url))
        async let thumbnail = manager.image(for: ImageRequest(url: url, context: .init(thumbnailPixelSize: 80)))
        let downloads = try await fixture.downloader.waitForDownloads(2)
        #expect(Set(fixture.downloader.keys).count == 1)
        for download in downloads { download.reply(.body(Pictures.photo)) }

        let (big, small) = try await (full, thumbnail)
        #expect(big.size == PixelSize(width: 320, height: 240))
        #expect(small.size == PixelSize(width: 80, height: 60))
        #expect(manager.cachedImage(for: ImageRequest(url: url, context: .init(thumbnailPixelSize: 80)))?.size == small.size)
        #expect(manager.cachedImage(for: ImageRequest(url: url))?.size == big.size)
    }

    @Test("cancelling one of three loads cancels that one only: the download goes on for the other two")
    func cancelOne() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        let logs = (0..<3).map { _ in LoadLog() }
        let tokens = logs.map { manager.loadImage(with: request, handler: $0.handler) }
        let download = try await fixture.downloader.download(at: 0)

        tokens[1].cancel()
        #expect(await logs[1].result().error?.isCancelled == true)
        #expect(!download.isCancelled)
        download.reply(.body(Pictures.photo))
        for index in [0, 2] {
            let response = try await logs[index].result().get()
            #expect(response.source == .network)
        }
        // The run's result has reached every subscriber it still had; the cancelled one
        // was no longer among them.
        #expect(logs.map(\.completions) == [1, 1, 1], "exactly one completion each")
        #expect(fixture.downloader.downloads.count == 1)
    }

    @Test("cancelling every load cancels the download: nothing is cached, and a new load asks again")
    func cancelAll() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        let log = LoadLog()
        let token = manager.loadImage(with: request, handler: log.handler)
        let download = try await fixture.downloader.download(at: 0)
        download.progress(received: 100, expected: 1000)

        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        await download.cancellation()
        download.reply(.body(Pictures.photo))  // too late: dropped
        #expect(manager.cachedImage(for: request) == nil)

        async let again = manager.response(for: request)
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.photo))
        let response = try await again
        #expect(response.source == .network)
        #expect(log.completions == 1)
    }

    @Test("cancelling the task of an async load cancels the load and its download")
    func taskCancellation() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("photo.jpg"))
        let task = Task { await outcome { () async throws(ImageLoadError) in try await manager.response(for: request) } }
        let download = try await fixture.downloader.download(at: 0)
        task.cancel()
        #expect(await task.value.error?.isCancelled == true)
        await download.cancellation()
        #expect(fixture.downloader.cancelledCount == 1)
    }

    @Test("a load that comes after the run stored its image is a memory hit and asks for nothing")
    func lateLoadHitsMemory() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let request = ImageRequest(url: fixture.url("badge.png"))
        _ = try await manager.image(for: request)
        let late = try await manager.response(for: request)
        #expect(late.source == .memory)
        #expect(fixture.downloader.downloads.count == 1)
    }
}
