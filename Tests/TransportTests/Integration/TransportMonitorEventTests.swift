import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency

@Suite("Transport monitors hear a transfer wait for a connection, and its metrics collected", .timeLimit(.minutes(2)))
struct TransportMonitorEventTests {
    @Test("with one connection per host, the second transfer waits (heard with its request, and not sent) until the first ends")
    func waitingForConnection() async throws {
        try await withServer { server in
            let monitor = WaitMonitor()
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1, eventMonitors: [monitor]))
            let holder = StreamingRecorder()
            let first = transport.start(held(server.url("/gate/wait-slot?bytes=2000&first=100")), delegate: holder)
            await holder.firstBytes()

            let waiter = StreamingRecorder()
            let second = transport.start(TransportRequest(url: server.url("/bytes/300?second=1")), delegate: waiter)
            await monitor.heard(1)
            #expect(monitor.waits == [Wait(second, server.url("/bytes/300?second=1"))])
            #expect(!server.requests.contains { $0.uri == "/bytes/300?second=1" }, "a waiting transfer is not sent")

            server.openGate("wait-slot")
            #expect((try? await holder.completion().result.get())?.statusCode == 200)
            #expect((try? await waiter.completion().result.get())?.statusCode == 200)
            await transport.shutdown()
            #expect(monitor.waits.map(\.task) == [second], "the first transfer found its connection free: \(first)")
        }
    }

    @Test(
        "a transfer that finds a free slot is not heard waiting: another host's under a limit of one, its own host's under two",
        arguments: [FreeSlot.anotherHost, .secondConnection])
    func freeSlotDoesNotWait(_ slot: FreeSlot) async throws {
        try await withServer { server in
            let monitor = WaitMonitor()
            // A second name for the server is a second host.
            let other = "dog.test:\(server.port):127.0.0.1"
            let limit = slot == .anotherHost ? 1 : 2
            let transport = CurlTransport(
                configuration: .init(maximumConnectionsPerHost: limit, eventMonitors: [monitor], resolvedHosts: [other]))
            let holder = StreamingRecorder()
            transport.start(held(server.url("/gate/free-slot?bytes=2000&first=100")), delegate: holder)
            await holder.firstBytes()

            let url =
                slot == .anotherHost
                ? URL(string: "http://dog.test:\(server.port)/bytes/300?free=1")! : server.url("/bytes/300?free=1")
            // Sent and answered while the first still holds its connection: it had a slot.
            // The event would have come before it was sent, on the transport's thread.
            let free = StreamingRecorder()
            transport.start(TransportRequest(url: url), delegate: free)
            #expect((try? await free.completion().result.get())?.statusCode == 200)
            #expect(holder.snapshot.completion == nil)
            #expect(monitor.waits.isEmpty)

            server.openGate("free-slot")
            #expect((try? await holder.completion().result.get())?.statusCode == 200)
            await transport.shutdown()
            #expect(monitor.waits.isEmpty)
        }
    }

    @Test("a redirect that finds its host's connection taken waits again, heard with the redirect's request")
    func redirectWaitsAgain() async throws {
        try await withServer { server in
            let monitor = WaitMonitor()
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1, eventMonitors: [monitor]))
            let holder = StreamingRecorder()
            transport.start(held(server.url("/gate/redirect-first?bytes=2000&first=100")), delegate: holder)
            await holder.firstBytes()

            // Both wait, in this order; when the first ends the redirect's first hop runs,
            // and its second hop queues behind the one that waited after it.
            let redirected = StreamingRecorder()
            let redirecting = transport.start(TransportRequest(url: server.url("/redirect/1")), delegate: redirected)
            let behind = StreamingRecorder()
            let behindURL = server.url("/gate/redirect-behind?bytes=2000&first=100")
            let waitsBehind = transport.start(held(behindURL), delegate: behind)
            await monitor.heard(2)

            server.openGate("redirect-first")
            await monitor.heard(3)
            #expect(
                monitor.waits == [
                    Wait(redirecting, server.url("/redirect/1")), Wait(waitsBehind, behindURL),
                    Wait(redirecting, server.url("/redirect/0")),
                ])
            #expect(!server.requests.contains { $0.uri == "/redirect/0" }, "the redirect waits unsent")

            server.openGate("redirect-behind")
            #expect((try? await redirected.completion().result.get())?.url == server.url("/redirect/0"))
            #expect((try? await behind.completion().result.get())?.statusCode == 200)
            await transport.shutdown()
            #expect(monitor.waits.count == 3)
        }
    }

    @Test("a waiting transfer paused leaves the queue, and resumed waits again: heard once per wait")
    func pausedWaiterWaitsAgain() async throws {
        try await withServer { server in
            let monitor = WaitMonitor()
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1, eventMonitors: [monitor]))
            let holder = StreamingRecorder()
            transport.start(held(server.url("/gate/paused-waiter?bytes=2000&first=100")), delegate: holder)
            await holder.firstBytes()

            let waiter = StreamingRecorder()
            let url = server.url("/bytes/300?paused-waiter=1")
            let waiting = transport.start(held(url), delegate: waiter)
            await monitor.heard(1)
            waiting.pause()
            waiting.resume()
            await monitor.heard(2)
            #expect(monitor.waits == [Wait(waiting, url), Wait(waiting, url)])

            server.openGate("paused-waiter")
            #expect((try? await waiter.completion().result.get())?.statusCode == 200)
            await transport.shutdown()
            #expect(monitor.waits.count == 2)
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

/// Which free slot a transfer finds.
enum FreeSlot: Sendable, CustomStringConvertible {
    case anotherHost, secondConnection
    var description: String { self == .anotherHost ? "another host" : "a second connection" }
}

/// One wait heard: the transfer and its hop's URL.
private struct Wait: Equatable {
    var task: TransferTask
    var url: URL
    init(_ task: TransferTask, _ url: URL) {
        self.task = task
        self.url = url
    }
}

/// A request with no timeouts: it holds or waits however slowly the machine runs.
private func held(_ url: URL) -> TransportRequest {
    var request = TransportRequest(url: url)
    request.timeouts = .init(connect: nil, total: nil, stall: nil)
    return request
}

/// Records the transfers that waited for a connection, on the transport's thread.
private final class WaitMonitor: TransportEventMonitor {
    var delivery: CallbackDelivery { .immediate }
    private let recorded = Locked<[Wait]>([])
    private let signal = EventSignal()
    var waits: [Wait] { recorded.withLock { $0 } }

    func transferIsWaitingForConnection(_ task: TransferTask, request: TransportRequest) {
        recorded.withLock { $0.append(Wait(task, request.url)) }
        signal.signal()
    }

    /// Returns once `count` waits have been heard.
    func heard(_ count: Int) async {
        await signal.wait { waits.count >= count }
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
