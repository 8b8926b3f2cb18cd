import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// The pipeline through the whole default composition (libcurl, the downloader, the disk
/// cache) against the loopback server: one test of each kind that the scripted tests
/// check in depth. Nothing here waits on a clock: a load that must join a download in
/// flight is started from that download's first progress event.
@Suite("Manager against the loopback server: the pipeline", .timeLimit(.minutes(1)))
struct LoopbackPipelineTests {
    @Test("twenty loads of one URL that join a transfer in flight: one request, one run, twenty images from the network")
    func oneTransfer() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let request = ImageRequest(url: fixture.url("photo.jpg"))
            let first = LoadLog()
            let joined = Locked<[(LoadLog, ImageLoadToken)]>([])
            // Started from the first progress event (every body gives one), on the thread
            // that delivers the download's events: the download cannot complete until
            // this returns, so every one of them joins the run. No drip needed.
            let token = manager.loadImage(with: request) { event in
                first.handler(event)
                guard case .progress = event, joined.withLock({ $0.isEmpty }) else { return }
                let logs = (0..<19).map { _ in LoadLog() }
                let tokens = logs.map { manager.loadImage(with: request, handler: $0.handler) }
                joined.withLock { $0 = Array(zip(logs, tokens)) }
            }
            let response = try await first.result().get()
            #expect(response.source == .network)
            let others = joined.withLock { $0 }
            #expect(others.count == 19, "the transfer reported progress")
            for (log, token) in others {
                #expect(token.key != nil, "joined, not answered from memory")
                let joinedResponse = try await log.result().get()
                #expect(joinedResponse.source == .network)
                #expect(joinedResponse.image?.size == PixelSize(width: 320, height: 240))
            }
            #expect(fixture.hits("photo.jpg") == 1)
            withExtendedLifetime(token) {}
        }
    }

    /// The thumbnail's run reaches the downloader on a task of its own. So that it always
    /// finds the transfer open, the response waits (in the response modifier, on the
    /// transport's thread) until the downloader reports that a second subscriber joined;
    /// the wait is bounded, so a broken join fails the request count instead of hanging.
    @Test("a thumbnail and the full image of one URL share one transfer and decode apart")
    func variantsShareTheTransfer() async throws {
        try await withFixture { fixture in
            let joined = DispatchSemaphore(value: 0)
            let manager = fixture.manager {
                $0.downloader.eventMonitor = JoinSignal(joined)
                $0.downloader.responseModifier = { response in
                    _ = joined.wait(timeout: .now() + 30)
                    return response
                }
            }
            let url = fixture.url("photo.jpg")
            async let full = manager.response(for: ImageRequest(url: url))
            async let thumbnail = manager.response(for: ImageRequest(url: url, context: .init(thumbnailPixelSize: 80)))
            let (big, small) = try await (full, thumbnail)
            #expect(big.image?.size == PixelSize(width: 320, height: 240))
            #expect(small.image?.size == PixelSize(width: 80, height: 60))
            #expect(big.source == .network && small.source == .network)
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("cold from the network, warm from memory, then from disk in a new manager: one request in all")
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

            let fromDisk = try await fixture.manager().response(for: request)
            #expect(fromDisk.source == .disk)
            #expect(fromDisk.image?.bitmap == cold.image?.bitmap)
            #expect(fixture.hits("photo.jpg") == 1)
        }
    }

    @Test("refreshCached revalidates with the file's ETag: the server answers 304 and the copy is kept")
    func revalidated() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("badge.png")
            _ = try await manager.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))

            let refreshed = try await manager.response(for: ImageRequest(url: url, options: [.refreshCached]))
            #expect(refreshed.source == .revalidated)
            #expect(refreshed.httpResponse?.statusCode == 304)
            #expect(refreshed.data == Pictures.badge)
            let conditional = fixture.server.requests.last { $0.path == "/files/badge.png" }
            #expect(conditional?.header("if-none-match") != nil)
            #expect(fixture.hits("badge.png") == 2)
        }
    }

    @Test("a 404 is remembered: the next load fails at once and sends no request")
    func notFoundIsRemembered() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("missing.png")
            let first = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            #expect(first.error.flatMap { if case .download(let error) = $0 { error.statusCode } else { nil } } == 404)
            let second = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            guard case .failedRecently? = second.error else {
                Issue.record("expected failedRecently, got \(second)")
                return
            }
            #expect(fixture.hits("missing.png") == 1)
        }
    }

    @Test(
        "a body that is not an image keeps the response it came with: a 200 with HTML, a 204, a 304 nobody asked for",
        arguments: [("/html", 200), ("/status/204", 204), ("/status/304", 304)])
    func undecodableBodyKeepsItsResponse(path: String, status: Int) async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let result = await outcome { () async throws(ImageLoadError) in
                try await manager.image(for: fixture.server.url(path))
            }
            guard case .decoding(_, let response?, let bytes?)? = result.error else {
                Issue.record("expected a decoding error with its response, got \(result)")
                return
            }
            #expect(response.statusCode == status)
            #expect(status == 200 ? bytes > 0 : bytes == 0)
            #expect(result.error?.description.contains("the server answered \(status) with \(bytes) bytes") == true)
        }
    }

    @Test("transient failures from a real server are not remembered: 503 and a reset")
    func transientFailures() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            for path in ["/status/503", "/reset?bytes=10000&after=1000"] {
                let url = fixture.server.url(path)
                let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
                #expect(result.error?.isPermanent == false, "\(path)")
                #expect(!manager.failedURLs.contains(ImageRequest(url: url).dataKey), "\(path)")
            }
        }
    }
}

/// Signals when a subscriber joins a download already under way.
private struct JoinSignal: DownloadEventMonitor {
    let joined: DispatchSemaphore

    init(_ joined: DispatchSemaphore) { self.joined = joined }

    func download(_ key: DownloadKey, didCoalesce priority: DownloadPriority, subscribers: Int) {
        joined.signal()
    }
}
