import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageCore
import WebImageOperations

@testable import WebImageConcurrency

/// Writes down the downloader's events as words, on a queue of its own.
private final class WordMonitor: DownloadEventMonitor {
    let queue = DispatchQueue(label: "downloader-monitor-test")
    private let words = Locked<[String]>([])
    var heard: [String] {
        queue.sync {}
        return words.withLock { $0 }
    }

    func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) {
        words.withLock { $0.append("queued /\(key.url.split(separator: "/").last ?? "")") }
    }
    func downloadDidStart(_ key: DownloadKey, request: TransportRequest, attempt: Int) {
        words.withLock { $0.append("started /\(key.url.split(separator: "/").last ?? "")") }
    }
    func download(_ key: DownloadKey, didFinish result: Result<DownloadResult, DownloadError>, subscribers: Int) {
        words.withLock { $0.append("finished /\(key.url.split(separator: "/").last ?? "")") }
    }
}

@Suite("ImageDownloader: monitors added while running, and the zero-byte progress (scripted transport)")
struct DownloaderMonitorTests {
    let transport = ScriptedTransport()
    let registry = DownloadRegistry()

    func url(_ name: String) -> URL { URL(string: "https://images.example/\(name)")! }

    @Test("a monitor added mid-run hears only later downloads; once removed, none")
    func addedAndRemoved() async {
        let downloader = ImageDownloader(transport: transport, registry: registry)
        let before = DownloadLog()
        downloader.download(DownloadRequest(url: url("a")), handler: before.handler)
        let monitor = WordMonitor()
        let registration = downloader.addEventMonitor(monitor)
        // The download that began before the add is reported from its next event on.
        transport.respond(transport.transfers[0].task, body: Data("a".utf8))
        _ = await before.result()

        let during = DownloadLog()
        downloader.download(DownloadRequest(url: url("b")), handler: during.handler)
        transport.respond(transport.transfers[1].task, body: Data("b".utf8))
        _ = await during.result()
        // Events still queued for a monitor when it is removed are dropped: let them run.
        monitor.queue.sync {}
        registration.remove()

        let after = DownloadLog()
        downloader.download(DownloadRequest(url: url("c")), handler: after.handler)
        transport.respond(transport.transfers[2].task, body: Data("c".utf8))
        _ = await after.result()

        #expect(monitor.heard == ["finished /a", "queued /b", "started /b", "finished /b"])
    }

    @Test("the monitor's own queue by default; the delivery given to addEventMonitor wins")
    func chosenDelivery() async {
        let downloader = ImageDownloader(transport: transport, registry: registry)
        let monitor = WordMonitor()
        let queue = DispatchQueue(label: "chosen")
        let marker = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: marker, value: true)
        let onChosen = Locked<[Bool]>([])
        final class QueueProbe: DownloadEventMonitor {
            let check: @Sendable () -> Void
            init(check: @escaping @Sendable () -> Void) { self.check = check }
            func downloadWasQueued(_ key: DownloadKey, priority: DownloadPriority) { check() }
        }
        downloader.addEventMonitor(monitor)
        downloader.addEventMonitor(
            QueueProbe { onChosen.withLock { $0.append(DispatchQueue.getSpecific(key: marker) == true) } }, delivery: .queue(queue))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url("d")), handler: log.handler)
        transport.respond(transport.transfers[0].task, body: Data("d".utf8))
        _ = await log.result()
        queue.sync {}
        #expect(onChosen.withLock { $0 } == [true])
        #expect(monitor.heard.first == "queued /d")
    }

    @Test("a download reports zero bytes at its start and again at the response, with the expected size, before any body byte")
    func zeroByteProgress() async {
        let downloader = ImageDownloader(transport: transport, registry: registry)
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url("e")), handler: log.handler)
        #expect(progress(log) == [Progress(received: 0, expected: nil)])

        let transfer = transport.transfers[0]
        let response = TransportResponse(
            url: transfer.request.url, statusCode: 200, headers: ["Content-Length": "1234"], httpVersion: .http1_1)
        transfer.delegate.transfer(transfer.task, didReceive: response)
        #expect(progress(log) == [Progress(received: 0, expected: nil), Progress(received: 0, expected: 1234)])

        let body = Data(repeating: 7, count: 1234)
        body.withUnsafeBytes { bytes in
            transfer.delegate.transfer(transfer.task, didReceive: bytes, progress: TransferProgress(received: 1234, expected: 1234))
        }
        transfer.delegate.transfer(
            transfer.task,
            didComplete: TransferCompletion(
                result: .success(response), metrics: TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)))
        #expect(await log.result().data == body)
        #expect(progress(log).last == Progress(received: 1234, expected: 1234))
    }

    @Test("a compressed body's zero-byte progress has no expected size (the declared length counts encoded bytes)")
    func zeroByteProgressCompressed() async {
        let downloader = ImageDownloader(transport: transport, registry: registry)
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url("f")), handler: log.handler)
        let transfer = transport.transfers[0]
        let response = TransportResponse(
            url: transfer.request.url, statusCode: 200, headers: ["Content-Length": "99", "Content-Encoding": "gzip"],
            httpVersion: .http1_1)
        transfer.delegate.transfer(transfer.task, didReceive: response)
        #expect(progress(log) == [Progress(received: 0, expected: nil), Progress(received: 0, expected: nil)])
        downloader.cancelAll()
    }

    struct Progress: Equatable {
        let received: Int64
        let expected: Int64?
    }

    private func progress(_ log: DownloadLog) -> [Progress] {
        log.all.compactMap { event in
            if case .progress(let received, let expected) = event { Progress(received: received, expected: expected) } else { nil }
        }
    }
}
