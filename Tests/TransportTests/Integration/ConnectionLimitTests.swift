import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@Suite("Transfers over a host's connection limit wait their turn", .timeLimit(.minutes(2)))
struct ConnectionLimitTests {
    /// A transport allowed one connection to the server, with that connection held by a
    /// request the server answers after five minutes (no timeouts: it holds the slot
    /// until cancelled, however slow the machine). The blocker is cancelled afterwards.
    private func withHeldSlot(_ server: LoopbackServer, _ body: (CurlTransport) async throws -> Void) async throws {
        let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1))
        var blocker = TransportRequest(url: server.url("/slow-first-byte?ms=300000"))
        blocker.timeouts = .init(connect: nil, total: nil, stall: nil)
        let held = transport.start(blocker, delegate: StreamingRecorder())
        defer { held.cancel() }
        await server.requestsArrived()
        try await body(transport)
    }

    @Test("they start in the order they were started, on no more connections than the limit")
    func fifoWithinTheLimit() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 2))
            // Started in this order from one task: `start` queues each before it returns.
            let recorders = (0..<12).map { index in
                let recorder = StreamingRecorder()
                transport.start(TransportRequest(url: server.url("/slow-first-byte?ms=20&i=\(index)")), delegate: recorder)
                return recorder
            }
            for recorder in recorders {
                let completion = await recorder.completion()
                #expect((try? completion.result.get())?.statusCode == 200, "\(completion.result)")
            }
            #expect(server.connectionCount <= 2)
            let arrival = server.requests.map(\.uri)
            let position = { (index: Int) in arrival.firstIndex(of: "/slow-first-byte?ms=20&i=\(index)") }
            #expect((0..<12).allSatisfy { position($0) != nil })
            // With two slots, transfer k can start only after k-2 (or one before it) has
            // finished, so the server saw k-2 first.
            for index in 2..<12 {
                let earlier = try #require(position(index - 2))
                let later = try #require(position(index))
                #expect(earlier < later, "transfer \(index)")
            }
        }
    }

    @Test("a transfer that waits its whole-transfer timeout for a slot fails as waitedForConnection, never sent")
    func timeoutWhileWaiting() async throws {
        try await withServer { server in
            try await withHeldSlot(server) { transport in
                var waiting = TransportRequest(url: server.url("/bytes/100?waiting=1"))
                waiting.timeouts = .init(connect: .seconds(10), total: .milliseconds(300), stall: nil)
                let (error, elapsed) = await timedTransferError(transport, waiting)
                #expect(error?.code == .waitedForConnection, "\(String(describing: error))")
                // The slot would not have come free for five minutes.
                #expect(elapsed < .seconds(60))
                #expect(elapsed >= .milliseconds(300))
                #expect(!server.requests.contains { $0.uri.contains("waiting=1") })
            }
        }
    }

    @Test("cancelling a waiting transfer ends it at once; the slot's next user is the one behind it")
    func cancelWhileWaiting() async throws {
        try await withServer { server in
            let behind = StreamingRecorder()
            try await withHeldSlot(server) { transport in
                let cancelled = StreamingRecorder()
                // Both wait for the held slot, in this order: `start` queues each before it
                // returns, and the cancel is queued after them.
                let task = transport.start(TransportRequest(url: server.url("/bytes/100?cancelled=1")), delegate: cancelled)
                transport.start(TransportRequest(url: server.url("/bytes/100?behind=1")), delegate: behind)
                task.cancel()
                let completion = await cancelled.completion()
                if case .failure(let error) = completion.result {
                    #expect(error.code == .cancelled)
                } else {
                    Issue.record("expected cancelled")
                }
            }
            // The held slot is free now: the transfer behind the cancelled one gets it.
            let behindCompletion = await behind.completion()
            #expect((try? behindCompletion.result.get())?.statusCode == 200, "\(behindCompletion.result)")
            #expect(behind.snapshot.body == patternBytes(100))
            #expect(!server.requests.contains { $0.uri.contains("cancelled=1") })
        }
    }

    @Test("a busy host does not hold up another host")
    func lanesPerHost() async throws {
        try await withServer { server in
            try await withHeldSlot(server) { transport in
                // The same server under another name is another host, for libcurl and for us.
                let other = try #require(URL(string: "http://localhost:\(server.port)/bytes/100"))
                let fetched = try await transport.data(for: TransportRequest(url: other))
                #expect(fetched.data == patternBytes(100))
            }
        }
    }
}

@Suite("A transfer's whole-transfer budget starts when it enters libcurl", .timeLimit(.minutes(2)))
struct ConnectionWaitBudgetTests {
    @Test("a transfer that waited for a slot gets its whole budget once admitted, not what the wait left")
    func budgetAfterTheWait() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1))
            var first = TransportRequest(url: server.url("/slow-first-byte?ms=500&first=1"))
            first.timeouts = .init(connect: nil, total: nil, stall: nil)
            let holder = StreamingRecorder()
            transport.start(first, delegate: holder)
            await server.requestsArrived()
            // Waits about 500 ms for the slot, then needs about 1000 ms of its 1500 ms:
            // counted from the start, the budget would run out 500 ms early.
            var second = TransportRequest(url: server.url("/slow-first-byte?ms=1000&second=1"))
            second.timeouts = .init(connect: .seconds(10), total: .milliseconds(1500), stall: nil)
            let fetched = try await transport.data(for: second)
            #expect(fetched.response.statusCode == 200)
            _ = await holder.completion()
        }
    }
}
