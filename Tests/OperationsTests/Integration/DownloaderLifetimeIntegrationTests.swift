import Foundation
import Testing
import WebImageCallbackRegistry
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageCore
@testable import WebImageOperations

@Suite("ImageDownloader lifetime on the real transport, against the loopback server", .timeLimit(.minutes(1)))
struct DownloaderLifetimeIntegrationTests {
    @Test("downloads of a downloader dropped at once go on over libcurl, those queued behind the running one too; then all is freed")
    func droppedAtOnce() async throws {
        try await withServer { server in
            let freed = FreedSignal()
            let logs = (0..<3).map { _ in DownloadLog() }
            var parts = DownloaderParts()
            do {
                let downloader = ImageDownloader(
                    transport: CurlTransport(), registry: DownloadRegistry(),
                    configuration: .init(
                        timeout: .seconds(600), stallTimeout: nil, maximumConcurrentDownloads: 1, eventMonitor: freed.monitor()))
                // The first holds the only slot until the gate opens, after the drop: no
                // stall timeout, and a whole-transfer timeout past any wait of a loaded run.
                downloader.download(DownloadRequest(url: server.url("/gate/lifetime?bytes=1000&first=10")), handler: logs[0].handler)
                downloader.download(DownloadRequest(url: server.url("/bytes/200")), handler: logs[1].handler)
                downloader.download(DownloadRequest(url: server.url("/bytes/300")), handler: logs[2].handler)
                parts = DownloaderParts(downloader)
            }
            server.openGate("lifetime")
            for (log, size) in zip(logs, [1000, 200, 300]) { #expect(await log.result().data?.count == size) }
            await freed.wait()
            parts.expectFreed()
        }
    }

    @Test("a suspended downloader dropped over libcurl cancels its waiting downloads, and none reaches the server")
    func droppedSuspended() async throws {
        try await withServer { server in
            let freed = FreedSignal()
            let logs = (0..<3).map { _ in DownloadLog() }
            var parts = DownloaderParts()
            do {
                let downloader = ImageDownloader(
                    transport: CurlTransport(), registry: DownloadRegistry(), configuration: .init(eventMonitor: freed.monitor()))
                downloader.suspend()
                for (index, log) in logs.enumerated() {
                    downloader.download(DownloadRequest(url: server.url("/bytes/\(100 + index)")), handler: log.handler)
                }
                parts = DownloaderParts(downloader)
            }
            for log in logs { #expect(await log.result().error?.isCancelled == true) }
            await freed.wait()
            parts.expectFreed()
            #expect(server.requests.isEmpty)
        }
    }
}
