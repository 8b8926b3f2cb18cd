import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("ImageDownloader lifetime: what dropping the downloader cancels, and what it lets finish", .timeLimit(.minutes(1)))
struct DownloaderLifetimeTests {
    let registry = DownloadRegistry()
    let freed = FreedSignal()

    let retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .seconds(1), jitter: 0)

    func url(_ name: String) -> URL { URL(string: "https://images.example/\(name).png")! }

    func downloader(_ transport: ScriptedTransport, _ configuration: ImageDownloader.Configuration = .init()) -> ImageDownloader {
        var configuration = configuration
        configuration.eventMonitor = freed.monitor()
        return ImageDownloader(transport: transport, registry: registry, configuration: configuration)
    }

    /// Drops a downloader whose queue `stop` stopped, with four subscribers (two sharing
    /// one download) waiting: each must be cancelled once, and every part freed, though
    /// the tokens are kept.
    func dropWaiting(stoppedBy stop: (ImageDownloader) -> Void) async {
        let logs = (0..<4).map { _ in DownloadLog() }
        var tokens: [DownloadToken] = []
        var parts = DownloaderParts()
        do {
            let transport = ScriptedTransport()
            let downloader = downloader(transport, .init(maximumConcurrentDownloads: 2))
            stop(downloader)
            for (log, name) in zip(logs, ["a", "b", "c", "c"]) {
                tokens.append(downloader.download(DownloadRequest(url: url(name)), handler: log.handler))
            }
            #expect(downloader.queue.pendingCount == 3)
            #expect(transport.transfers.isEmpty)
            parts = DownloaderParts(downloader)
        }
        for log in logs { #expect(await log.result().error?.isCancelled == true) }
        await freed.wait()
        parts.expectFreed()
        #expect(registry.keyCount == 0)
        for token in tokens { token.cancel() }
        #expect(logs.allSatisfy { $0.results.count == 1 }, "one completion each, and a later cancel adds none")
    }

    @Test("a suspended downloader dropped with downloads waiting cancels each subscriber once, and frees its queue, context and operations")
    func droppedSuspended() async {
        await dropWaiting { $0.suspend() }
    }

    @Test("a downloader dropped while it holds its starts cancels each waiting subscriber once, and frees its queue, context, operations")
    func droppedHoldingStarts() async {
        await dropWaiting { downloader in
            downloader.holdStarts()
            downloader.holdStarts()
            downloader.releaseStarts()
        }
    }

    @Test("callback downloads of a downloader dropped at once go on, the running one and those queued behind it; then all is freed")
    func droppedAtOnce() async {
        let logs = (0..<3).map { _ in DownloadLog() }
        var parts = DownloaderParts()
        do {
            let transport = ScriptedTransport()
            do {
                let downloader = downloader(transport, .init(maximumConcurrentDownloads: 1))
                for (log, name) in zip(logs, ["a", "b", "c"]) { downloader.download(DownloadRequest(url: url(name)), handler: log.handler) }
                parts = DownloaderParts(downloader)
            }
            #expect(parts.downloader == nil)
            for index in 0..<3 {
                await transport.waitForTransfers(index + 1)
                transport.respond(transport.transfers[index].task, body: Data([UInt8(index)]))
            }
            for (index, log) in logs.enumerated() { #expect(await log.result().data == Data([UInt8(index)])) }
        }
        await freed.wait()
        parts.expectFreed()
        #expect(logs.allSatisfy { $0.results.count == 1 })
    }

    @Test("dropping a suspended downloader lets its running download finish, and cancels only those waiting")
    func droppedSuspendedWhileRunning() async {
        let running = DownloadLog()
        let waiting = (0..<2).map { _ in DownloadLog() }
        var parts = DownloaderParts()
        do {
            let transport = ScriptedTransport()
            do {
                let downloader = downloader(transport, .init(maximumConcurrentDownloads: 2))
                downloader.download(DownloadRequest(url: url("running")), handler: running.handler)
                downloader.suspend()
                for (log, name) in zip(waiting, ["b", "c"]) { downloader.download(DownloadRequest(url: url(name)), handler: log.handler) }
                parts = DownloaderParts(downloader)
            }
            for log in waiting { #expect(await log.result().error?.isCancelled == true) }
            #expect(running.results.isEmpty, "the running download goes on")
            transport.respond(transport.transfers[0].task, body: Data("done".utf8))
            #expect(await running.result().data == Data("done".utf8))
            #expect(transport.transfers.count == 1, "nothing waiting started")
            #expect(transport.cancelledCount == 0)
        }
        await freed.wait()
        parts.expectFreed()
    }

    @Test("a running download whose retry would wait in the suspended queue of a dropped downloader ends cancelled instead")
    func retryAfterDrop() async {
        let clock = ManualClock()
        let log = DownloadLog()
        var parts = DownloaderParts()
        do {
            let transport = ScriptedTransport()
            do {
                var configuration = ImageDownloader.Configuration(retryPolicy: retryPolicy)
                configuration.clock = clock
                let downloader = downloader(transport, configuration)
                downloader.download(DownloadRequest(url: url("a")), handler: log.handler)
                downloader.suspend()
                parts = DownloaderParts(downloader)
            }
            transport.respond(transport.transfers[0].task, status: 503, body: Data())
            await clock.waitForTimers(1)
            #expect(log.results.isEmpty, "it waits to retry")
            clock.advance(by: .seconds(60))
            #expect(await log.result().error?.isCancelled == true)
            #expect(transport.transfers.count == 1)
        }
        await freed.wait()
        parts.expectFreed()
    }

    @Test("a download waiting to retry when its suspended downloader is dropped ends cancelled at once")
    func backingOffWhenDropped() async {
        let clock = ManualClock()
        let log = DownloadLog()
        var parts = DownloaderParts()
        do {
            let transport = ScriptedTransport()
            do {
                var configuration = ImageDownloader.Configuration(retryPolicy: retryPolicy)
                configuration.clock = clock
                let downloader = downloader(transport, configuration)
                downloader.download(DownloadRequest(url: url("a")), handler: log.handler)
                transport.respond(transport.transfers[0].task, status: 503, body: Data())
                await clock.waitForTimers(1)
                downloader.suspend()
                parts = DownloaderParts(downloader)
            }
            #expect(await log.result().error?.isCancelled == true, "without the clock moving")
            #expect(transport.transfers.count == 1)
        }
        await freed.wait()
        parts.expectFreed()
    }

    @Test("a download cancelled while others still wait in a suspended queue is freed at once")
    func cancelledWhileOthersWait() async {
        let transport = ScriptedTransport()
        let downloader = downloader(transport)
        downloader.suspend()
        let log = DownloadLog()
        let token = downloader.download(DownloadRequest(url: url("a")), handler: log.handler)
        downloader.download(DownloadRequest(url: url("b")), handler: { _ in })
        let parts = DownloaderParts(downloader)
        let cancelled = parts.operations.filter { $0.operation?.request.url == url("a") }
        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        #expect(downloader.queue.pendingCount == 1)
        #expect(cancelled.count == 1)
        #expect(cancelled.allSatisfy { $0.operation == nil }, "the queue's stale entry keeps nothing of it")
    }

    @Test("a download its subscriber paused out of a suspended queue ends cancelled when the downloader is dropped")
    func pausedWhenDropped() async {
        let log = DownloadLog()
        var parts = DownloaderParts()
        var token: DownloadToken?
        do {
            let transport = ScriptedTransport()
            let downloader = downloader(transport)
            downloader.suspend()
            token = downloader.download(DownloadRequest(url: url("a")), handler: log.handler)
            token?.pause()
            #expect(downloader.queue.pendingCount == 0, "paused, it left the queue")
            parts = DownloaderParts(downloader)
        }
        #expect(await log.result().error?.isCancelled == true)
        token?.resume()
        await freed.wait()
        parts.expectFreed()
        #expect(log.results.count == 1)
    }
}
