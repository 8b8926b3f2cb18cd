import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@Suite("Broken servers end in specific errors, never a hang")
struct FaultTests {
    @Test("a connection reset mid-body is connectionReset")
    func reset() async throws {
        try await withServer { server in
            let error = await transferError(CurlTransport(), TransportRequest(url: server.url("/reset?bytes=100000&after=20000")))
            #expect(error?.code == .connectionReset)
        }
    }

    @Test("fewer bytes than Content-Length is truncatedBody")
    func lengthMismatch() async throws {
        try await withServer { server in
            let error = await transferError(
                CurlTransport(), TransportRequest(url: server.url("/length-mismatch?declared=5000&actual=1000")))
            #expect(error?.code == .truncatedBody)
        }
    }

    @Test("nothing listening is connectionRefused")
    func refused() async throws {
        let refusing = try RefusingPort()
        let error = await transferError(CurlTransport(), TransportRequest(url: URL(string: "http://127.0.0.1:\(refusing.port)/x")!))
        #expect(error?.code == .connectionRefused)
    }

    @Test("a slow first byte past the total timeout is timedOut, promptly")
    func totalTimeout() async throws {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/slow-first-byte?ms=300000"))
            request.timeouts.total = .milliseconds(300)
            request.timeouts.stall = nil
            let (error, elapsed) = await timedTransferError(CurlTransport(), request)
            #expect(error?.code == .timedOut)
            // Far below the server's 5 minutes, generous for a loaded machine.
            #expect(elapsed < .seconds(10))
        }
    }

    @Test("a body that stops arriving is stalled after the stall timeout")
    func stall() async throws {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/stall?bytes=100000&after=1000"))
            request.timeouts.stall = .seconds(1)
            request.timeouts.total = .seconds(60)
            let (error, elapsed) = await timedTransferError(CurlTransport(), request)
            #expect(error?.code == .stalled)
            // The server would hold the connection open for ever; the total limit is 60 s.
            #expect(elapsed < .seconds(15))
        }
    }

    @Test("a dripping body inside the limits arrives whole")
    func drip() async throws {
        try await withServer { server in
            let fetched = try await CurlTransport().data(
                for: TransportRequest(url: server.url("/drip?bytes=4000&chunk=1000&interval_ms=50")))
            #expect(fetched.data == patternBytes(4000))
        }
    }
}

@Suite("Cancellation", .timeLimit(.minutes(2)))
struct CancellationTests {
    @Test("cancel() from another thread ends the transfer at once with cancelled; no bytes after")
    func cancelTask() async throws {
        try await withServer { server in
            let recorder = StreamingRecorder()
            // No timeouts and a drip of five minutes: only the cancel can end it, however
            // long a busy test pool keeps this task from running.
            var request = TransportRequest(url: server.url("/drip?bytes=1000000&chunk=1000&interval_ms=300"))
            request.timeouts = .init(connect: nil, total: nil, stall: nil)
            let task = CurlTransport().start(request, delegate: recorder)
            await recorder.firstBytes()
            task.cancel()
            let bytesAtCancel = recorder.snapshot.body.count
            let started = ContinuousClock.now
            let completion = await recorder.completion()
            // The drip would take minutes more. Measured where the completion arrived, so a
            // busy test pool cannot stretch it.
            #expect(recorder.snapshot.completedAt! - started < .seconds(10))
            if case .failure(let error) = completion.result {
                #expect(error.code == .cancelled)
            } else {
                Issue.record("expected cancelled")
            }
            #expect(recorder.snapshot.body.count == bytesAtCancel)
            #expect(recorder.snapshot.completions == 1)
            task.cancel()  // a second cancel is harmless
        }
    }

    @Test("cancelling the awaiting Swift task cancels the transfer")
    func cancelSwiftTask() async throws {
        try await withServer { server in
            let clock = CompletionClock()
            let transport = CurlTransport(configuration: .init(eventMonitors: [clock]))
            var request = TransportRequest(url: server.url("/slow-first-byte?ms=300000"))
            request.timeouts = .init(connect: nil, total: nil, stall: nil)
            let fetch = Task { try await transport.data(for: request) }
            await server.requestsArrived()
            let started = ContinuousClock.now
            fetch.cancel()
            let result = await fetch.result
            // The server would answer after 5 minutes. Measured on the transport's thread (a
            // cancel before the transfer started completes nothing there: then it is 0).
            let ended = clock.completions.first ?? started
            #expect(ended - started < .seconds(10))
            #expect(throws: TransportError.self) { try result.get() }
            if case .failure(let error as TransportError) = result { #expect(error.code == .cancelled) }
        }
    }

    @Test("a transport released with transfers in flight lets them finish")
    func releaseWhileRunning() async throws {
        try await withServer { server in
            let recorder = StreamingRecorder()
            do {
                let transport = CurlTransport()
                transport.start(TransportRequest(url: server.url("/drip?bytes=3000&chunk=1000&interval_ms=30")), delegate: recorder)
            }
            let completion = await recorder.completion()
            let response = try completion.result.get()
            #expect(response.statusCode == 200)
            #expect(recorder.snapshot.body == patternBytes(3000))
        }
    }
}

@Suite("Lifetimes", .timeLimit(.minutes(2)))
struct LifetimeTests {
    /// Tells the test that its completion was delivered, and holds nothing of the test.
    final class Probe: TransferDelegate {
        let completed: AsyncStream<Void>.Continuation

        init(_ completed: AsyncStream<Void>.Continuation) { self.completed = completed }

        func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) { completed.yield() }
    }

    @Test("nothing of a transfer outlives its completion: the delegate is released")
    func delegateReleased() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let completed = AsyncStream<Void>.makeStream()
            weak var released: Probe?
            do {
                let probe = Probe(completed.continuation)
                released = probe
                transport.start(TransportRequest(url: server.url("/bytes/100")), delegate: probe)
            }
            for await _ in completed.stream { break }
            // The loop lets go of a finished transfer on its next pass; a transfer started
            // after the first completed takes several passes to complete itself, so by
            // then the first one's state is gone.
            let recorder = StreamingRecorder()
            transport.start(TransportRequest(url: server.url("/bytes/100")), delegate: recorder)
            _ = await recorder.completion()
            #expect(released == nil)
        }
    }
}
