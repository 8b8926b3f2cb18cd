import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageManager

@Suite("What a manager lists as running, against the loopback server")
struct RunningLoadsTests {
    /// The bytes received, as a load's progress events said, to wait on.
    private final class Progress: Sendable {
        private let stream = AsyncStream<Int64>.makeStream()

        var handler: @Sendable (ImageLoadEvent) -> Void {
            { [stream] event in
                switch event {
                case .progress(let received, _): stream.continuation.yield(received)
                case .completed: stream.continuation.finish()
                case .partial: break
                }
            }
        }

        /// `true` once the progress reached `bytes`, `false` when the load ended first.
        func reached(_ bytes: Int64) async -> Bool {
            for await received in stream.stream where received >= bytes { return true }
            return false
        }
    }

    @Test("runningLoads lists a run in flight with its stage, progress and loads, and none once it ended")
    func runningLoads() async throws {
        try await withFixture { fixture in
            // Held at the gate until the listing is read: no stall timeout, and a
            // whole-transfer timeout past any wait of a loaded test run, so that the load
            // is still running when it is.
            let manager = fixture.manager {
                $0.downloader.timeout = .seconds(600)
                $0.downloader.stallTimeout = nil
            }
            let url = fixture.server.url("/gate/loading?bytes=5000&first=1000")
            let progress = Progress()
            let log = LoadLog()
            manager.loadImage(with: ImageRequest(url: url), handler: progress.handler)
            manager.loadImage(with: ImageRequest(url: url), handler: log.handler)
            #expect(await progress.reached(1000))
            let listed = manager.runningLoads
            try #require(listed.count == 1)
            #expect(listed[0].url == url)
            #expect(listed[0].stage == .downloading)
            #expect(listed[0].isPaused == false)
            #expect(listed[0].received == 1000, "the server holds the rest")
            #expect(listed[0].expected == 5000)
            #expect(listed[0].loads == 2)
            let downloads = try #require(manager.downloader as? ImageDownloader).runningDownloads
            #expect(downloads.map(\.url) == [url], "the download below it")
            fixture.server.openGate("loading")
            // The gate's bytes are a pattern, not an image: the run ends with a decoding error.
            guard case .failure(let error) = await log.result() else {
                Issue.record("a pattern decoded as an image")
                return
            }
            #expect(error.errorClass.hasPrefix("decoding"))
            await manager.whenNoLoadIsUnderWay()
            #expect(manager.runningLoads.isEmpty)
        }
    }
}
