import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("NotificationBroadcaster: the seeds' notifications from a real download", .timeLimit(.minutes(1)))
struct NotificationTests {
    static let names: [Notification.Name] = [
        .webImageDownloadDidStart, .webImageDownloadDidReceiveResponse, .webImageDownloadDidStop, .webImageDownloadDidFinish,
        .webImageTransferDidStart, .webImageTransferDidComplete, .webImageTransferDidSuspend, .webImageTransferDidResume,
    ]

    @Test("start, receive response and finish are posted in order with their userInfo; the transfer's start and complete carry the task")
    func downloadNotifications() async throws {
        try await withServer { server in
            let log = NotificationLog(Self.names)
            let broadcaster = NotificationBroadcaster(center: log.center)
            let transport = CurlTransport()
            transport.addEventMonitor(broadcaster)
            let downloader = ImageDownloader(transport: transport, registry: DownloadRegistry())
            downloader.addEventMonitor(broadcaster)
            let url = server.url("/bytes/321")
            let download = DownloadLog()
            downloader.download(DownloadRequest(url: url), handler: download.handler)
            #expect(await download.result().data?.count == 321)
            await log.wait(for: .webImageDownloadDidFinish)
            await log.wait(for: .webImageTransferDidComplete)

            let downloadNotes = log.all.filter { $0.name.rawValue.hasPrefix("WebImageDownload") }
            #expect(
                downloadNotes.map(\.name) == [.webImageDownloadDidStart, .webImageDownloadDidReceiveResponse, .webImageDownloadDidFinish])
            let key = WebImageNotificationKey.self
            #expect(downloadNotes.allSatisfy { $0.info[key.url.rawValue] == url.absoluteString })
            #expect(downloadNotes[0].info[key.attempt.rawValue] == "1")
            #expect(downloadNotes[1].info[key.statusCode.rawValue] == "200")
            #expect(downloadNotes[2].info[key.byteCount.rawValue] == "321")
            #expect(downloadNotes[2].info[key.subscribers.rawValue] == "1")
            #expect(downloadNotes[2].info[key.error.rawValue] == nil)

            let transferNotes = log.all.filter { $0.name.rawValue.hasPrefix("WebImageTransfer") }
            #expect(transferNotes.map(\.name) == [.webImageTransferDidStart, .webImageTransferDidComplete])
            #expect(transferNotes.allSatisfy { $0.isTaskObject })
            #expect(transferNotes[0].info[key.transferID.rawValue] == transferNotes[1].info[key.transferID.rawValue])
            #expect(transferNotes[1].info[key.statusCode.rawValue] == "200")
        }
    }

    @Test("a failed download finishes with its error; a cancelled one posts stop before finish")
    func failureAndStop() async throws {
        try await withServer { server in
            let log = NotificationLog(Self.names)
            let downloader = ImageDownloader(transport: CurlTransport(), registry: DownloadRegistry())
            downloader.addEventMonitor(NotificationBroadcaster(center: log.center))

            let missing = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/status/404")), handler: missing.handler)
            _ = await missing.result()
            await log.wait(for: .webImageDownloadDidFinish)
            let failed = log.all.first { $0.name == .webImageDownloadDidFinish }
            #expect(failed?.info[WebImageNotificationKey.error.rawValue] != nil)
            #expect(failed?.info[WebImageNotificationKey.byteCount.rawValue] == nil)

            let stopped = DownloadLog()
            let token = downloader.download(DownloadRequest(url: server.url("/slow-first-byte?ms=5000")), handler: stopped.handler)
            token.cancel()
            _ = await stopped.result()
            await log.wait(for: .webImageDownloadDidFinish, count: 2)
            let names = log.all.map(\.name)
            let stop = try #require(names.lastIndex(of: .webImageDownloadDidStop))
            #expect(names.lastIndex(of: .webImageDownloadDidFinish).map { $0 > stop } == true)
        }
    }

    @Test("pausing and resuming a transfer posts suspend and resume with the task, between its start and complete")
    func suspendAndResume() async throws {
        try await withServer { server in
            let log = NotificationLog(Self.names)
            let transport = CurlTransport()
            transport.addEventMonitor(NotificationBroadcaster(center: log.center))
            let sink = BodySink()
            // The server holds the body after its first bytes until the gate opens, so the
            // pause lands mid-body however slowly the suite runs this task.
            var request = TransportRequest(url: server.url("/gate/suspend?bytes=4000&first=50"))
            request.timeouts = .init(connect: .seconds(10), total: nil, stall: nil)
            let task = transport.start(request, delegate: sink)
            await sink.firstBytes()
            task.pause()
            await log.wait(for: .webImageTransferDidSuspend)
            server.openGate("suspend")
            task.resume()
            await log.wait(for: .webImageTransferDidComplete)
            #expect(sink.received == 4000)
            let names = log.all.map(\.name)
            #expect(
                names == [.webImageTransferDidStart, .webImageTransferDidSuspend, .webImageTransferDidResume, .webImageTransferDidComplete])
            #expect(log.all.allSatisfy { $0.isTaskObject })
        }
    }
}

/// Counts a transfer's body bytes and says when the first arrived.
private final class BodySink: TransferDelegate {
    private let count = Locked(0)
    private let began = AsyncStream<Void>.makeStream()
    var received: Int { count.withLock { $0 } }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        let first = count.withLock { count in
            defer { count += bytes.count }
            return count == 0
        }
        if first { began.continuation.yield() }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {}

    func firstBytes() async {
        for await _ in began.stream { break }
    }
}
