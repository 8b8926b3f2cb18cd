import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency

@Suite("Transport monitors hear a transfer wait for a connection, and its metrics collected", .timeLimit(.minutes(2)))
struct TransportMonitorEventTests {
    @Test("with one connection per host, the second transfer waits (heard, and not sent) until the first ends")
    func waitingForConnection() async throws {
        try await withServer { server in
            let monitor = WaitMonitor()
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1, eventMonitors: [monitor]))
            let holder = StreamingRecorder()
            var held = TransportRequest(url: server.url("/gate/wait-slot?bytes=2000&first=100"))
            held.timeouts = .init(connect: nil, total: nil, stall: nil)
            let first = transport.start(held, delegate: holder)
            await holder.firstBytes()

            let waiter = StreamingRecorder()
            let second = transport.start(TransportRequest(url: server.url("/bytes/300?second=1")), delegate: waiter)
            #expect(await monitor.waited() == second)
            #expect(!server.requests.contains { $0.uri == "/bytes/300?second=1" }, "a waiting transfer is not sent")

            server.openGate("wait-slot")
            #expect((try? await holder.completion().result.get())?.statusCode == 200)
            #expect((try? await waiter.completion().result.get())?.statusCode == 200)
            await transport.shutdown()
            #expect(monitor.waiting == [second], "the first transfer found its connection free: \(first)")
        }
    }

    @Test("metrics collected is heard once per transfer, before its completion, with the completion's metrics")
    func metricsCollected() async throws {
        try await withServer { server in
            let monitor = MetricsMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [monitor]))
            let recorder = StreamingRecorder()
            let task = transport.start(TransportRequest(url: server.url("/redirect/1")), delegate: recorder)
            let completion = await recorder.completion()
            #expect((try? completion.result.get())?.statusCode == 200)
            let failed = await transferError(transport, TransportRequest(url: server.url("/status/404")))
            #expect(failed?.code == .httpStatus)
            await transport.shutdown()

            let events = monitor.events
            #expect(events.map(\.kind) == [.metrics, .completed, .metrics, .completed])
            #expect(events.first?.task == task)
            let collected = try #require(events.first?.metrics)
            #expect(collected.redirectCount == 1)
            #expect(collected.transactions.map(\.url) == completion.metrics.transactions.map(\.url))
            #expect(collected.transactions.map(\.url) == [server.url("/redirect/1"), server.url("/redirect/0")])
            #expect(collected.totalDuration == completion.metrics.totalDuration)
            #expect(events[2].metrics?.transactions.first?.statusCode == 404)
        }
    }
}

/// Records the transfers that waited for a connection, on the transport's thread.
private final class WaitMonitor: TransportEventMonitor {
    var delivery: CallbackDelivery { .immediate }
    private let recorded = Locked<[TransferTask]>([])
    private let heard = AsyncStream<TransferTask>.makeStream()
    var waiting: [TransferTask] { recorded.withLock { $0 } }

    func transferIsWaitingForConnection(_ task: TransferTask) {
        recorded.withLock { $0.append(task) }
        heard.continuation.yield(task)
    }

    /// The first transfer heard waiting.
    func waited() async -> TransferTask? {
        for await task in heard.stream { return task }
        return nil
    }
}

/// Records metrics collected and completions, in order, on the transport's thread.
private final class MetricsMonitor: TransportEventMonitor {
    enum Kind { case metrics, completed }
    struct Event {
        var kind: Kind
        var task: TransferTask
        var metrics: TransferMetrics?
    }

    var delivery: CallbackDelivery { .immediate }
    private let recorded = Locked<[Event]>([])
    var events: [Event] { recorded.withLock { $0 } }

    func transfer(_ task: TransferTask, didCollect metrics: TransferMetrics) {
        recorded.withLock { $0.append(Event(kind: .metrics, task: task, metrics: metrics)) }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        recorded.withLock { $0.append(Event(kind: .completed, task: task)) }
    }
}
