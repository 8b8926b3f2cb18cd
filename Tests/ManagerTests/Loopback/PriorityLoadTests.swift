import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageOperations

/// A load that joins a run with a higher priority moves the run up: here, its download in
/// the downloader's queue, against the loopback server.
@Suite("Manager: a higher-priority load that joins raises the run's priority", .timeLimit(.minutes(2)))
struct PriorityLoadTests {
    /// The joiner's options, and those of the other waiting load, which the raised one
    /// must now go before.
    static let cases: [(joiner: ImageLoadOptions, other: ImageLoadOptions)] = [
        ([.highPriority], []),
        ([], [.lowPriority]),
    ]

    @Test(
        "a low-priority download waiting for a slot starts before a lower one once a load of higher priority joins it",
        arguments: cases.indices)
    func joiningRaisesTheQueuedDownload(_ index: Int) async throws {
        let (joinerOptions, otherOptions) = Self.cases[index]
        try await withFixture { fixture in
            let manager = fixture.manager { configuration in
                // One download at a time, and no timer while the gate holds the slot: a
                // stall or whole-transfer timer firing in a starved test run would free it
                // early, before the join.
                configuration.downloader.maximumConcurrentDownloads = 1
                configuration.downloader.requestModifier = { request in
                    var request = request
                    request.timeouts = .init(connect: .seconds(30), total: nil, stall: nil)
                    return request
                }
            }
            let queue = try #require((manager.downloader as? ImageDownloader)?.queue)
            let queueChanged = EventSignal()
            let watching = queue.observeChanges(queueChanged.callback)
            defer { watching.remove() }
            let blocker = LoadLog()
            let low = LoadLog()
            let normal = LoadLog()
            let joiner = LoadLog()
            let blockerRequest = ImageRequest(url: fixture.server.url("/gate/priority?bytes=100&first=10"))
            // The held download takes the one slot first; runs reach the downloader in
            // their own time, so the other two are asked for only once it has.
            let blocking = manager.loadImage(with: blockerRequest, handler: blocker.handler)
            await queueChanged.wait { queue.runningCount == 1 }
            let waiting = [
                manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg"), options: [.lowPriority]), handler: low.handler),
                manager.loadImage(with: ImageRequest(url: fixture.url("badge.png"), options: otherOptions), handler: normal.handler),
            ]
            // Both wait behind the held one; the low photo would go last, or in turn.
            await queueChanged.wait { queue.pendingCount == 2 }
            let joined = manager.loadImage(
                with: ImageRequest(url: fixture.url("photo.jpg"), options: joinerOptions), handler: joiner.handler)
            fixture.server.openGate("priority")
            _ = await blocker.result()
            let lowResult = await low.result()
            let joinerResult = await joiner.result()
            let normalResult = await normal.result()
            withExtendedLifetime((blocking, waiting, joined)) {}

            #expect((try? lowResult.get())?.image?.size == (try? joinerResult.get())?.image?.size)
            #expect((try? normalResult.get()) != nil)
            let order = fixture.server.requests.map(\.path).filter { $0.hasPrefix("/files/") }
            #expect(order == ["/files/photo.jpg", "/files/badge.png"], "the joined download went first")
        }
    }
}
