import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
@testable import WebImageCore
import WebImageOperations
import WebImageTestSupport
@testable import WebImageConcurrency

@Suite("ImageDownloader retries (scripted transport)")
struct DownloaderRetryTests {
    let url = URL(string: "https://images.example/a.png")!
    let quick = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(50))

    @Test("off by default: a 503 is the result")
    func offByDefault() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = ImageDownloader(transport: transport, registry: DownloadRegistry())
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        #expect(await log.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 1)
    }

    @Test("a transient failure is retried, and the result counts the attempts; the slot is free while it waits")
    func retriesTransient() async throws {
        let transport = ScriptedTransport()
        let monitor = RetryMonitor()
        let downloader = ImageDownloader(
            transport: transport, registry: DownloadRegistry(),
            configuration: .init(maximumConcurrentDownloads: 1, retryPolicy: .init(maximumRetries: 2, baseDelay: .milliseconds(200)), eventMonitor: monitor))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        transport.respond(transport.transfers[0].task, status: 503, body: Data())
        #expect(downloader.currentDownloadCount == 0, "backing off holds no slot")
        await transport.waitForTransfers(2)
        transport.respond(transport.transfers[1].task, body: Data("ok".utf8))
        let result = try await log.result().get()
        #expect(result.attempts == 2)
        #expect(result.data == Data("ok".utf8))
        #expect(await monitor.retries() == [1])
    }

    @Test("retries stop at the maximum; permanent failures are never retried")
    func limits() async {
        let failing = ScriptedTransport(autoAnswer: { _ in (500, Data()) })
        let downloader = ImageDownloader(transport: failing, registry: DownloadRegistry(), configuration: .init(retryPolicy: quick))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        #expect(await log.result().error?.statusCode == 500)
        #expect(failing.transfers.count == 3)

        let missing = ScriptedTransport(autoAnswer: { _ in (404, Data()) })
        let second = ImageDownloader(transport: missing, registry: DownloadRegistry(), configuration: .init(retryPolicy: quick))
        let notFound = DownloadLog()
        second.download(DownloadRequest(url: url), handler: notFound.handler)
        #expect(await notFound.result().error?.statusCode == 404)
        #expect(missing.transfers.count == 1)
    }

    @Test("a request can opt in, or bring its own policy")
    func perRequest() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = ImageDownloader(transport: transport, registry: DownloadRegistry())
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url, retryPolicy: .init(maximumRetries: 1, baseDelay: .milliseconds(1))), handler: log.handler)
        #expect(await log.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 2)
    }

    @Test("cancelling while it waits to retry ends it at once")
    func cancelDuringBackoff() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = ImageDownloader(
            transport: transport, registry: DownloadRegistry(), configuration: .init(retryPolicy: .init(maximumRetries: 3, baseDelay: .seconds(30))))
        let log = DownloadLog()
        let token = downloader.download(DownloadRequest(url: url), handler: log.handler)
        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        #expect(transport.transfers.count == 1)
        #expect(downloader.activeDownloadCount == 0)
    }
}

/// Collects retry events from the monitor's queue.
final class RetryMonitor: DownloadEventMonitor {
    private let attempts = Locked<[Int]>([])

    func download(_ key: DownloadKey, willRetryAfter delay: Duration, error: TransportError, attempt: Int) {
        attempts.withLock { $0.append(attempt) }
    }

    func retries() async -> [Int] {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        return attempts.withLock { $0 }
    }
}
