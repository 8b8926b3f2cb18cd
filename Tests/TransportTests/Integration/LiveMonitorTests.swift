import Foundation
import Synchronization
import Testing
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Records which transfers it heard of and on which threads, with the transport's
/// default delivery; says when a completion has arrived.
private final class ThreadMonitor: TransportEventMonitor {
    private let state = Locked<(started: [URL], completed: Int, threads: Set<UInt>)>(([], 0, []))
    private let completions = AsyncStream<Void>.makeStream()

    var started: [URL] { state.withLock { $0.started } }
    var threads: Set<UInt> { state.withLock { $0.threads } }

    func transferDidStart(_ task: TransferTask, request: TransportRequest) {
        state.withLock {
            $0.started.append(request.url)
            $0.threads.insert(UInt(pthread_self()))
        }
    }

    func transfer(_ task: TransferTask, didReceiveBytes count: Int, progress: TransferProgress) {
        state.withLock { _ = $0.threads.insert(UInt(pthread_self())) }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        state.withLock {
            $0.completed += 1
            $0.threads.insert(UInt(pthread_self()))
        }
        completions.continuation.yield()
    }

    /// Waits until `count` completions have been heard.
    func waitForCompletions(_ count: Int) async {
        await completions.stream.wait { state.withLock { $0.completed } >= count }
    }
}

@Suite("Transport monitors added and removed while it runs")
struct LiveMonitorTests {
    @Test("a monitor added mid-run hears only later transfers; once removed, none")
    func addedAndRemoved() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            _ = try await transport.data(for: TransportRequest(url: server.url("/bytes/10")))
            let monitor = ThreadMonitor()
            let registration = transport.addEventMonitor(monitor)
            _ = try await transport.data(for: TransportRequest(url: server.url("/bytes/20")))
            await monitor.waitForCompletions(1)
            registration.remove()
            // A second monitor on the same shared queue, added after the first: once it
            // has heard the last transfer end, so would have the first.
            let control = ThreadMonitor()
            transport.addEventMonitor(control)
            _ = try await transport.data(for: TransportRequest(url: server.url("/bytes/30")))
            await control.waitForCompletions(1)
            #expect(monitor.started == [server.url("/bytes/20")])
            #expect(control.started == [server.url("/bytes/30")])
        }
    }

    @Test("by default a monitor runs off the transport's thread; .immediate runs it there")
    func deliveryThread() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let queued = ThreadMonitor()
            let immediate = ThreadMonitor()
            transport.addEventMonitor(queued)
            transport.addEventMonitor(immediate, delivery: .immediate)
            let recorder = StreamingRecorder()
            transport.start(TransportRequest(url: server.url("/bytes/5000")), delegate: recorder)
            _ = await recorder.completion()
            await queued.waitForCompletions(1)
            await immediate.waitForCompletions(1)
            let loopThreads = recorder.snapshot.threads
            #expect(loopThreads.count == 1)
            #expect(queued.threads.isDisjoint(with: loopThreads), "never on the transport's thread")
            #expect(immediate.threads == loopThreads, "on the transport's thread, as asked")
            #expect(queued.started == [server.url("/bytes/5000")])
        }
    }

    @Test("a configured monitor and an added one both hear a transfer, each once")
    func configuredAndAdded() async throws {
        try await withServer { server in
            let configured = ThreadMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [configured]))
            let added = ThreadMonitor()
            transport.addEventMonitor(added)
            _ = try await transport.data(for: TransportRequest(url: server.url("/bytes/1")))
            await configured.waitForCompletions(1)
            await added.waitForCompletions(1)
            #expect(configured.started.count == 1)
            #expect(added.started.count == 1)
        }
    }
}
