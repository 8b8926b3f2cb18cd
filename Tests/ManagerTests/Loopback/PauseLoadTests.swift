import Foundation
import Synchronization
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// Pausing loads through the manager's token against the loopback server: coalesced
/// loads pause their shared transfer only together, and the downloader's monitors see it.
@Suite("Manager: pause and resume loads", .timeLimit(.minutes(1)))
struct PauseLoadTests {
    /// A JPEG of about a megabyte: many body chunks, so a pause falls mid-body.
    static let big = try! JPEGFixtureEncoder(quality: 100).encode(SyntheticImage.photo(width: 1600, height: 1200, seed: 3))

    private func withBigPicture<R>(_ body: (Fixture, URL) async throws -> R) async throws -> R {
        try await withFixture { fixture in
            try Self.big.write(to: fixture.root.appendingPathComponent("big.jpg"))
            return try await body(fixture, fixture.url("big.jpg"))
        }
    }

    @Test("two coalesced loads: one pausing leaves the transfer running; both pausing pause it; one resuming resumes it")
    func coalescedLoadsPauseTogether() async throws {
        try await withBigPicture { fixture, url in
            let monitor = PauseEvents()
            let manager = fixture.manager { $0.downloader.eventMonitor = monitor }
            let downloader = try #require(manager.downloader as? ImageDownloader)
            // Held in the queue until both tokens are known to the handlers.
            downloader.suspend()
            let tokens = Locked<[ImageLoadToken]>([])
            let progressEvents = Locked(0)
            let first = LoadLog()
            let second = LoadLog()
            // Events arrive on the transport's thread, inside its write callback: a pause
            // made here stops the transfer before its next chunk.
            let firstToken = manager.loadImage(with: ImageRequest(url: url)) { event in
                first.handler(event)
                guard case .progress = event else { return }
                let count = progressEvents.withLock {
                    $0 += 1
                    return $0
                }
                let both = tokens.withLock { $0 }
                // The first chunk: the first load pauses. The transfer goes on (the
                // second has not paused), so a second chunk comes: now both pause.
                if count == 1 { both[0].pause() }
                if count == 2 { both[1].pause() }
            }
            let secondToken = manager.loadImage(with: ImageRequest(url: url), handler: second.handler)
            tokens.withLock { $0 = [firstToken, secondToken] }
            downloader.resume()

            await monitor.paused()
            #expect(progressEvents.withLock { $0 } >= 2, "one pause alone did not stop the transfer")
            // No byte arrives while other loads complete.
            _ = try await manager.image(for: fixture.url("badge.png"))
            let seen = (first.progress.last, second.progress.last)
            _ = try await manager.image(for: fixture.url("animation.gif"))
            #expect(first.progress.last == seen.0)
            #expect(second.progress.last == seen.1)
            #expect(first.completions == 0 && second.completions == 0)
            #expect((seen.0 ?? 0) < Int64(Self.big.count), "paused mid-body")

            // One resume resumes it for both; every byte arrives once.
            firstToken.resume()
            let firstResponse = try await first.result().get()
            let secondResponse = try await second.result().get()
            #expect(firstResponse.data == Self.big)
            #expect(secondResponse.data == Self.big)
            #expect(firstResponse.image?.size == secondResponse.image?.size)
            #expect(fixture.hits("big.jpg") == 1, "one transfer for both loads")
            let counts = await monitor.settled()
            #expect(counts.pauses == 1 && counts.resumes == 1)
        }
    }

    @Test("a paused load is cancelled cleanly: cancelled at once, the transfer stopped")
    func cancelWhilePaused() async throws {
        try await withBigPicture { fixture, url in
            let monitor = PauseEvents()
            let manager = fixture.manager { $0.downloader.eventMonitor = monitor }
            let downloader = try #require(manager.downloader as? ImageDownloader)
            downloader.suspend()
            let held = Locked<ImageLoadToken?>(nil)
            let log = LoadLog()
            // Paused from its first progress event, inside the transport's write callback:
            // surely mid-body.
            let token = manager.loadImage(with: ImageRequest(url: url)) { event in
                log.handler(event)
                if case .progress = event { held.withLock { $0 }?.pause() }
            }
            held.withLock { $0 = token }
            downloader.resume()
            await monitor.paused()
            token.cancel()
            let result = await log.result()
            guard case .failure(.cancelled) = result else {
                Issue.record("expected a cancellation, got \(result)")
                return
            }
            await monitor.stopped()
            #expect(log.completions == 1)
        }
    }

    @Test("a load paused before its download began starts paused, and resumed, completes")
    func pauseBeforeTheDownload() async throws {
        try await withBigPicture { fixture, url in
            let monitor = PauseEvents()
            let manager = fixture.manager { $0.downloader.eventMonitor = monitor }
            let log = LoadLog()
            let token = manager.loadImage(with: ImageRequest(url: url), handler: log.handler)
            token.pause()
            await monitor.paused()
            token.resume()
            let response = try await log.result().get()
            #expect(response.data == Self.big)
        }
    }
}

/// Counts the downloader's pause events and lets a test await them.
final class PauseEvents: DownloadEventMonitor {
    private let counts = Locked((pauses: 0, resumes: 0, stops: 0))
    private let pauseStream = AsyncStream<Void>.makeStream()
    private let stopStream = AsyncStream<Void>.makeStream()

    func downloadDidPause(_ key: DownloadKey) {
        counts.withLock { $0.pauses += 1 }
        pauseStream.continuation.yield()
    }

    func downloadDidResume(_ key: DownloadKey) { counts.withLock { $0.resumes += 1 } }

    func downloadDidStop(_ key: DownloadKey) {
        counts.withLock { $0.stops += 1 }
        stopStream.continuation.yield()
    }

    /// Returns at the next pause (or at once for one not awaited yet).
    func paused() async {
        for await _ in pauseStream.stream { break }
    }

    func stopped() async {
        for await _ in stopStream.stream { break }
    }

    /// The counts once every event sent so far has arrived.
    func settled() async -> (pauses: Int, resumes: Int, stops: Int) {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        return counts.withLock { $0 }
    }
}
