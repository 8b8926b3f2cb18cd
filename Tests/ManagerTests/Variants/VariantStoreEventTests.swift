import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

/// Monitors hear of the variants a manager stores (``ImageLoadEventMonitor``'s
/// `didStoreVariant`), against the loopback server and a real disk cache folder.
@Suite("Manager: stored variants reported to monitors", .timeLimit(.minutes(1)))
struct VariantStoreEventTests {
    private func manager(_ fixture: Fixture, log: LoadEventLog, recorder: ImageLoadRecorder) -> ImageManager {
        fixture.manager {
            $0.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
            $0.manager.eventMonitors = [log, recorder]
        }
    }

    @Test(
        "a thumbnail made from the source reports its variant stored on disk; one served from the variant, or a full-size load, reports none"
    )
    func storesReported() async throws {
        try await withFixture { fixture in
            let url = fixture.server.url("/cache/photo.jpg?cc=max-age%3D600")
            let thumbnail = ImageRequest(url: url, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: 64))
            let log = LoadEventLog()
            let records = Locked<[ImageLoadRecord]>([])
            let recorder = ImageLoadRecorder { record in records.withLock { $0.append(record) } }
            let first = manager(fixture, log: log, recorder: recorder)
            _ = try await first.response(for: ImageRequest(url: url, options: [.waitForCacheStore]))
            _ = try await first.response(for: thumbnail)
            #expect(log.heard.filter { $0.contains("variant") } == ["photo.jpg stored a non-empty variant on disk"])
            await recorder.flush()
            #expect(records.withLock { $0.map(\.storedVariants) } == [[], [.disk]])

            let restartedLog = LoadEventLog()
            let restarted = manager(fixture, log: restartedLog, recorder: ImageLoadRecorder { _ in })
            #expect(try await restarted.response(for: thumbnail).isStoredVariant)
            #expect(!restartedLog.heard.contains { $0.contains("variant") }, "a variant read is no store")
        }
    }
}
