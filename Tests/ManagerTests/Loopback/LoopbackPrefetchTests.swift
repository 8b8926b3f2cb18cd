import Foundation
import Testing
import WebImage

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
}
