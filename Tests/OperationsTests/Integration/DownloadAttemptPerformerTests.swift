import Dispatch
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

@Suite("A download's attempts performed by the app's own performer")
struct DownloadAttemptPerformerTests {
    /// Answers every attempt from memory, off the calling thread, counting how many run
    /// at once and in which order they started.
    private final class InMemoryPerformer: DownloadAttemptPerforming {
        private struct State {
            var running = 0
            var mostAtOnce = 0
            var started: [String] = []
        }

        private let state = Locked(State())
        private let queue = DispatchQueue(label: "test.performer", attributes: .concurrent)
        let body = Data("served by the app".utf8)

        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
        var started: [String] { state.withLock { $0.started } }

        func performAttempt(
            _ request: TransportRequest, number: Int, key: DownloadKey, transport: any Transporting, delegate: any TransferDelegate
        ) -> TransferTask {
            state.withLock { state in
                state.running += 1
                state.mostAtOnce = max(state.mostAtOnce, state.running)
                state.started.append(request.url.lastPathComponent)
            }
            let task = TransferTask(onCancel: { _ in })
            let response = TransportResponse(url: request.url, statusCode: 200, headers: ["Content-Length": "17"], httpVersion: nil)
            queue.asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
                delegate.transfer(task, didReceive: response)
                body.withUnsafeBytes { delegate.transfer(task, didReceive: $0, progress: TransferProgress(received: 17, expected: 17)) }
                // Off the count before the completion: the completion frees the slot.
                state.withLock { $0.running -= 1 }
                delegate.transfer(
                    task,
                    didComplete: TransferCompletion(
                        result: .success(response), metrics: TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)))
            }
            return task
        }
    }

    /// Forwards to the transport, recording each attempt's number.
    private final class RecordingPerformer: DownloadAttemptPerforming {
        private let attempts = Locked<[Int]>([])
        var all: [Int] { attempts.withLock { $0 } }

        func performAttempt(
            _ request: TransportRequest, number: Int, key: DownloadKey, transport: any Transporting, delegate: any TransferDelegate
        ) -> TransferTask {
            attempts.withLock { $0.append(number) }
            return transport.start(request, delegate: delegate)
        }
    }

    @Test("a performer of the app's own runs every download through the queue, one slot at a time, in order")
    func ownPerformerThroughTheQueue() async throws {
        let performer = InMemoryPerformer()
        let downloader = ImageDownloader(
            transport: CurlTransport(), registry: DownloadRegistry(),
            configuration: .init(maximumConcurrentDownloads: 1, attemptPerformer: performer))
        let names = (0..<5).map { "image-\($0).png" }
        let logs = names.map { name in
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: URL(string: "https://bundle.test/\(name)")!), handler: log.handler)
            return log
        }
        for log in logs {
            let data = try await log.result().get().data
            #expect(data == performer.body)
        }
        #expect(performer.started == names, "first in, first out")
        #expect(performer.mostAtOnce == 1, "the queue's one slot held")
    }

    @Test("a performer that forwards to the transport sees every attempt, the retry included")
    func forwardingPerformerSeesRetries() async throws {
        try await withServer { server in
            let performer = RecordingPerformer()
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(),
                configuration: .init(
                    retryPolicy: RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(5), jitter: 0),
                    attemptPerformer: performer))
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/flaky/performer?failures=1&bytes=300")), handler: log.handler)
            let result = try await log.result().get()
            #expect(result.data.count == 300)
            #expect(result.attempts == 2)
            #expect(performer.all == [1, 2])
        }
    }
}
