import Foundation
import Synchronization
import Testing
import WebImage

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Prefetcher", .timeLimit(.minutes(1)))
struct PrefetcherTests {
    @Test("counts: fetched from the network, skipped when cached, failed; progress after each URL")
    func counts() async throws {
        let fixture = ScriptedFixture.serving()
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
        #expect(fixture.downloader.downloads.count == 4, "the badge once before, then three")
    }

    @Test("never more loads at once than asked, each at low priority; each end lets the next one start")
    func concurrencyLimit() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 2)
        let urls = (0..<8).map { fixture.url("photo-\($0).jpg") }
        let done = AsyncStream<PrefetchProgress>.makeStream()
        let token = prefetcher.prefetch(urls, completion: { done.continuation.yield($0) })
        // Both first loads are asked for before either is answered, however slow the run.
        try await fixture.downloader.waitForDownloads(2)
        for index in 0..<8 {
            // The load that starts when this one ends is the next but one to be asked for.
            try await fixture.downloader.download(at: index).reply(.body(Pictures.photo))
        }
        var summary: PrefetchProgress?
        for await progress in done.stream {
            summary = progress
            break
        }
        withExtendedLifetime(token) {}
        #expect(summary?.finished == 8)
        let downloads = fixture.downloader.downloads
        #expect(Set(downloads.map(\.request.url)) == Set(urls))
        #expect(downloads.map(\.running).max() == 2)
        #expect(Set(downloads.map(\.request.effectivePriority)) == [.low])
    }

    @Test("cancel: waiting URLs and running loads end as cancelled, the download is cancelled, and the completion still comes")
    func cancel() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentLoads: 1)
        let urls = (0..<5).map { fixture.url("photo-\($0).jpg") }
        let done = AsyncStream<PrefetchProgress>.makeStream()
        let token = prefetcher.prefetch(urls, completion: { done.continuation.yield($0) })
        let running = try await fixture.downloader.download(at: 0)
        token.cancel()
        var summary: PrefetchProgress?
        for await progress in done.stream {
            summary = progress
            break
        }
        #expect(summary?.cancelled == 5)
        #expect(summary?.isDone == true)
        await running.cancellation()
        #expect(fixture.downloader.downloads.count == 1, "the waiting four never started")
        #expect(fixture.downloader.cancelledCount == 1)
    }
}
