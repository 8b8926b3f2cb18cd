import Foundation
import Synchronization
import Testing
import WebImage
@testable import WebImageCore
import WebImageTestServer
@testable import WebImageConcurrency

@Suite("Prefetcher")
struct PrefetcherTests {
    @Test("counts: fetched from the network, skipped when cached, failed; progress after each URL")
    func counts() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            _ = try await manager.image(for: fixture.url("badge.png"))
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 2)
            let reports = Locked<[PrefetchProgress]>([])
            let urls = ["photo.jpg", "badge.png", "animation.gif", "missing.jpg"].map { fixture.url($0) }
            let summary = await prefetcher.prefetch(urls) { progress in reports.withLock { $0.append(progress) } }
            #expect(summary.total == 4)
            #expect(summary.finished == 2)
            #expect(summary.skipped == 1)
            #expect(summary.failed == 1)
            #expect(summary.cancelled == 0)
            #expect(reports.withLock { $0.map(\.completed) } == [1, 2, 3, 4])
            #expect(manager.cachedImage(for: ImageRequest(url: fixture.url("photo.jpg"))) != nil, "prefetched into memory")
        }
    }

    @Test("never more loads at once than asked")
    func concurrencyLimit() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 2)
            let urls = (0..<8).map { fixture.url("photo.jpg", query: "n=\($0)&chunk=8000&interval_ms=30") }
            let summary = await prefetcher.prefetch(urls)
            #expect(summary.finished == 8)
            // The server saw each connection's requests; with 2 loads at a time the
            // transport never needed more than 2 connections.
            let connections = Set(fixture.server.requests.map(\.connectionID))
            #expect(connections.count <= 2)
        }
    }

    @Test("cancel: waiting URLs and running loads end as cancelled, and the completion still comes")
    func cancel() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 1)
            // Each body drips for over a minute, so however late a busy machine runs the
            // cancel, no load can have finished before it.
            let urls = (0..<5).map { fixture.url("photo.jpg", query: "n=\($0)&chunk=200&interval_ms=1000") }
            let done = AsyncStream<PrefetchProgress>.makeStream()
            let token = prefetcher.prefetch(urls, completion: { done.continuation.yield($0) })
            try await Task.sleep(for: .milliseconds(150))
            token.cancel()
            var summary: PrefetchProgress?
            for await progress in done.stream {
                summary = progress
                break
            }
            #expect(summary?.cancelled == 5)
            #expect(summary?.isDone == true)
        }
    }
}
