import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("ImageDownloader retries (scripted transport, manual clock)")
struct DownloaderRetryTests {
    let url = URL(string: "https://images.example/a.png")!
    let clock = ManualClock()
    let quick = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(50), jitter: 0)

    /// A downloader whose waits between attempts run on the test's clock.
    func downloader(_ transport: ScriptedTransport, _ configuration: ImageDownloader.Configuration = .init()) -> ImageDownloader {
        var configuration = configuration
        configuration.clock = clock
        return ImageDownloader(transport: transport, registry: DownloadRegistry(), configuration: configuration)
    }

    /// Lets `count` waits run out, one after the other.
    func letWaitsRunOut(_ count: Int) async {
        for _ in 0..<count {
            await clock.waitForTimers(1)
            clock.advance(by: .seconds(60))
        }
    }

    @Test("off by default: a 503 is the result")
    func offByDefault() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = downloader(transport)
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        #expect(await log.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 1)
        #expect(clock.askedDurations.isEmpty)
    }

    @Test("a transient failure is retried after the policy's wait, and the result counts the attempts; the slot is free while it waits")
    func retriesTransient() async throws {
        let transport = ScriptedTransport()
        let monitor = RetryMonitor()
        let policy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(200), jitter: 0)
        let downloader = downloader(transport, .init(maximumConcurrentDownloads: 1, retryPolicy: policy, eventMonitor: monitor))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        transport.respond(transport.transfers[0].task, status: 503, body: Data())
        #expect(downloader.currentDownloadCount == 0, "backing off holds no slot")
        await clock.waitForTimers(1)
        #expect(clock.askedDurations == [.milliseconds(200)])
        clock.advance(by: .milliseconds(199))
        #expect(clock.timerCount == 1, "not before the wait is over")
        #expect(transport.transfers.count == 1)
        clock.advance(by: .milliseconds(1))
        await transport.waitForTransfers(2)
        transport.respond(transport.transfers[1].task, body: Data("ok".utf8))
        let result = try await log.result().get()
        #expect(result.attempts == 2)
        #expect(result.data == Data("ok".utf8))
        #expect(await monitor.retries() == [1])
    }

    @Test("retries stop at the maximum, the waits doubling; permanent failures are never retried")
    func limits() async {
        let failing = ScriptedTransport(autoAnswer: { _ in (500, Data()) })
        let downloader = downloader(failing, .init(retryPolicy: quick))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        await letWaitsRunOut(2)
        #expect(await log.result().error?.statusCode == 500)
        #expect(failing.transfers.count == 3)
        #expect(clock.askedDurations == [.milliseconds(5), .milliseconds(10)])

        let missing = ScriptedTransport(autoAnswer: { _ in (404, Data()) })
        let second = self.downloader(missing, .init(retryPolicy: quick))
        let notFound = DownloadLog()
        second.download(DownloadRequest(url: url), handler: notFound.handler)
        #expect(await notFound.result().error?.statusCode == 404)
        #expect(missing.transfers.count == 1)
        #expect(clock.askedDurations.count == 2, "no wait for a 404")
    }

    @Test("a request can opt in, or bring its own policy")
    func perRequest() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = downloader(transport)
        let own = DownloadLog()
        downloader.download(
            DownloadRequest(url: url, retryPolicy: .init(maximumRetries: 1, baseDelay: .milliseconds(1), jitter: 0)), handler: own.handler)
        await letWaitsRunOut(1)
        #expect(await own.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 2)

        let optedIn = DownloadLog()
        downloader.download(
            DownloadRequest(url: URL(string: "https://images.example/b.png")!, options: [.retryTransientFailures]), handler: optedIn.handler
        )
        await letWaitsRunOut(RetryPolicy.default.maximumRetries)
        #expect(await optedIn.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 2 + 1 + RetryPolicy.default.maximumRetries, "the default policy applies")
    }

    @Test("cancelling while it waits to retry ends it at once and cancels the wait")
    func cancelDuringBackoff() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = downloader(transport, .init(retryPolicy: .init(maximumRetries: 3, baseDelay: .seconds(30))))
        let log = DownloadLog()
        let token = downloader.download(DownloadRequest(url: url), handler: log.handler)
        await clock.waitForTimers(1)
        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        await clock.waitForTimers(0)
        #expect(transport.transfers.count == 1)
        #expect(downloader.activeDownloadCount == 0)
    }

    @Test("by default the waits run on the continuous clock")
    func continuousClockByDefault() async {
        let transport = ScriptedTransport(autoAnswer: { _ in (503, Data()) })
        let downloader = ImageDownloader(
            transport: transport, registry: DownloadRegistry(),
            configuration: .init(retryPolicy: .init(maximumRetries: 1, baseDelay: .milliseconds(1))))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        #expect(await log.result().error?.statusCode == 503)
        #expect(transport.transfers.count == 2)
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
