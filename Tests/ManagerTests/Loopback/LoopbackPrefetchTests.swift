import Foundation
import Testing
import WebImage
import WebImageTestServer

@Suite("Manager against the loopback server: prefetching", .timeLimit(.minutes(1)))
struct LoopbackPrefetchTests {
    @Test("a prefetch fetches, skips what memory has and counts a 404, one request per URL")
    func counts() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            _ = try await manager.image(for: fixture.url("badge.png"))
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 2)
            let urls = ["photo.jpg", "badge.png", "animation.gif", "missing.jpg"].map { fixture.url($0) }
            let summary = await prefetcher.prefetch(urls)
            #expect(summary.finished == 2)
            #expect(summary.skipped == 1)
            #expect(summary.failed == 1)
            #expect(manager.cachedImage(for: ImageRequest(url: fixture.url("photo.jpg"))) != nil)
            for name in ["photo.jpg", "badge.png", "animation.gif", "missing.jpg"] {
                #expect(fixture.hits(name) == 1, "\(name)")
            }
        }
    }

    @Test("cancelling a prefetch ends the running load and the waiting URLs as cancelled; the waiting ones never reach the server")
    func cancel() async throws {
        try await withFixture { fixture in
            // The held load ends only when cancelled: no stall timeout, and a whole-transfer
            // timeout past any wait of a loaded test run.
            let manager = fixture.manager {
                $0.downloader.timeout = .seconds(600)
                $0.downloader.stallTimeout = nil
            }
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 1)
            let held = fixture.server.url("/gate/prefetch?bytes=5000&first=1000")
            let urls = [held] + ["photo.jpg", "badge.png", "animation.gif", "progressive.jpg"].map { fixture.url($0) }
            let done = AsyncStream<PrefetchProgress>.makeStream()
            let token = prefetcher.prefetch(urls, completion: { done.continuation.yield($0) })
            await fixture.server.requestsArrived(1)
            token.cancel()
            var summary: PrefetchProgress?
            for await progress in done.stream {
                summary = progress
                break
            }
            #expect(summary?.cancelled == 5)
            #expect(summary?.isDone == true)
            #expect(fixture.server.requests.map(\.path) == ["/gate/prefetch"], "the waiting four never started")
        }
    }

    @Test("a prefetch runs at most maximumConcurrentLoads loads at once; the next URL is asked for once one of them ends")
    func concurrencyLimit() async throws {
        try await withFixture { fixture in
            // The held loads end when their gates open: no stall timeout, and a
            // whole-transfer timeout past any wait of a loaded test run.
            let manager = fixture.manager {
                $0.downloader.timeout = .seconds(600)
                $0.downloader.stallTimeout = nil
            }
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 2)
            let held = ["first", "second"].map { fixture.server.url("/gate/\($0)?bytes=5000&first=1000") }
            let done = AsyncStream<PrefetchProgress>.makeStream()
            let token = prefetcher.prefetch(held + [fixture.url("photo.jpg")], completion: { done.continuation.yield($0) })
            await fixture.server.requestsArrived(2)
            #expect(manager.runningLoads.count == 2)
            #expect(fixture.hits("photo.jpg") == 0)
            fixture.server.openGate("first")
            await fixture.server.requestsArrived(3)
            #expect(fixture.hits("photo.jpg") == 1)
            fixture.server.openGate("second")
            var summary: PrefetchProgress?
            for await progress in done.stream {
                summary = progress
                break
            }
            withExtendedLifetime(token) {}
            #expect(summary?.finished == 1)
            #expect(summary?.failed == 2, "the gates' bodies are no images")
        }
    }
}
