import Foundation
import Synchronization
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// A load cancelled with "keep resumable data" through the manager's token, and the next
/// load of the image asking only for the rest: the umbrella keeps partial downloads
/// beside the disk cache.
@Suite("Manager: resumable loads", .timeLimit(.minutes(1)))
struct ResumableLoadTests {
    @Test("cancel(keepingResumableData: true) mid-body; the next load sends one Range request and decodes the whole image")
    func cancelKeepingThenResume() async throws {
        try await withFixture { fixture in
            try PauseLoadTests.big.write(to: fixture.root.appendingPathComponent("big.jpg"))
            let url = fixture.url("big.jpg", query: "chunk=\(PauseLoadTests.big.count / 20)&interval_ms=50")
            let monitor = PauseEvents()
            let manager = fixture.manager { $0.downloader.eventMonitor = monitor }
            let store = try #require((manager.downloader as? ImageDownloader)?.configuration.partialDownloads)
            #expect(store.configuration.directory.path.hasPrefix(fixture.cacheDirectory.path))

            let first = LoadLog()
            let tokenBox = Locked<ImageLoadToken?>(nil)
            let cancelled = Locked(false)
            /// The first caller cancels, keeping what arrived.
            let cancelOnce: @Sendable (ImageLoadToken) -> Void = { token in
                guard
                    cancelled.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                token.cancel(keepingResumableData: true)
            }
            // Cancelled from the handler on the transport's thread, at the first body bytes,
            // so the drip cannot end first.
            let token = manager.loadImage(with: ImageRequest(url: url)) { event in
                first.handler(event)
                guard case .progress(let received, _) = event, received > 0, let token = tokenBox.withLock({ $0 }) else { return }
                cancelOnce(token)
            }
            tokenBox.withLock { $0 = token }
            // Bytes that came before the token was known.
            if first.progress.contains(where: { $0 > 0 }) { cancelOnce(token) }
            guard case .failure(.cancelled) = await first.result() else {
                Issue.record("the first load was not cancelled")
                return
            }
            await monitor.stopped()
            #expect(store.count == 1, "what arrived is kept")

            let response = try await manager.response(for: ImageRequest(url: url))
            #expect(response.data == PauseLoadTests.big)
            #expect(response.source == .network)
            let ranges = fixture.server.requests.filter { $0.path == "/files/big.jpg" && $0.header("range") != nil }
            #expect(ranges.count == 1)
            #expect(ranges.first?.header("if-range")?.hasPrefix("\"") == true, "the file's strong ETag")
            #expect(store.count == 0)
        }
    }

    @Test("keepsPartialDownloads = false, or no cache directory, turns resuming off; a store given to the downloader wins")
    func off() throws {
        var configuration = WebImageConfiguration(cacheDirectory: URL(fileURLWithPath: "/tmp/webimage-unused"))
        #expect(configuration.makePartialDownloadStore()?.configuration.directory.lastPathComponent == "partial-downloads")
        configuration.keepsPartialDownloads = false
        #expect(configuration.makePartialDownloadStore() == nil)
        #expect(WebImageConfiguration(cacheDirectory: nil).makePartialDownloadStore() == nil)
        let own = PartialDownloadStore(directory: URL(fileURLWithPath: "/tmp/webimage-own"))
        configuration.downloader.partialDownloads = own
        #expect(configuration.makePartialDownloadStore() === own)
    }
}
