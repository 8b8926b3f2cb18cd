import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageSecurity
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency

/// Pausing and resuming one transfer against the loopback server, over HTTP/1.1 and
/// HTTP/2 (TLS, by ALPN): every byte exactly once, other transfers going on meanwhile,
/// no timeout for the paused time, a clean cancel while paused.
// The limit guards against a hang, not a slow machine: under ASan, with the whole suite
// sharing two cores, one of these tests took 231 s, most of it waiting for its turn on
// the test pool between steps (the whole part of the run takes about 4 minutes).
@Suite("Pause and resume one transfer", .timeLimit(.minutes(6)))
struct PauseTests {
    enum HTTPVersion: String, CaseIterable, CustomTestStringConvertible {
        case http1 = "HTTP/1.1"
        case http2 = "HTTP/2"
        var testDescription: String { rawValue }
    }

    /// A server speaking `version`, and a transport that trusts it, for one test.
    private func withSetup<R>(
        _ version: HTTPVersion, connectionsPerHost: Int = 6, pausedBodyLimit: Int = TransportConfiguration().pausedBodyLimit,
        _ body: (LoopbackServer, CurlTransport, PauseMonitor) async throws -> R
    ) async throws -> R {
        let monitor = PauseMonitor()
        switch version {
        case .http1:
            return try await withServer { server in
                var configuration = TransportConfiguration(maximumConnectionsPerHost: connectionsPerHost, eventMonitors: [monitor])
                configuration.pausedBodyLimit = pausedBodyLimit
                return try await body(server, CurlTransport(configuration: configuration), monitor)
            }
        case .http2:
            let ca = try TestCertificateAuthority()
            return try await withServer(.init(tls: ca.issue())) { server in
                let anchors = [WebImageCore.Certificate(derBytes: ca.certificateDER)]
                var configuration = TransportConfiguration(
                    maximumConnectionsPerHost: connectionsPerHost,
                    trustPolicy: ServerTrustManager(evaluators: ["127.0.0.1": AnchoredTrustEvaluator(anchors: anchors)]),
                    eventMonitors: [monitor])
                configuration.pausedBodyLimit = pausedBodyLimit
                return try await body(server, CurlTransport(configuration: configuration), monitor)
            }
        }
    }

    /// A paused `size`-byte transfer of `path` (resumed when the test says) beside
    /// siblings on its connection; its completion after the resume.
    private func pauseBesideSiblings(
        _ version: HTTPVersion, path: String, size: Int, pausedBodyLimit: Int
    ) async throws -> (TransferCompletion, PausingDelegate) {
        // Where libcurl multiplexes safely the siblings are streams of the paused one's
        // connection; elsewhere (and over HTTP/1.1) they have connections of their own.
        try await withSetup(version, pausedBodyLimit: pausedBodyLimit) { server, transport, monitor in
            let paused = PausingDelegate(pauseAtFirstChunk: true)
            var request = TransportRequest(url: server.url(path))
            let stall = Duration.seconds(2)
            request.timeouts = .init(connect: .seconds(10), total: .seconds(30), stall: stall)
            let task = transport.start(request, delegate: paused)
            let atPause = await paused.pausedWithBytes()
            let ended = String(describing: paused.snapshot.completion?.result)
            try #require(atPause > 0, "paused at its first chunk, not ended first: \(ended)")
            await monitor.paused(task)
            // Siblings each have their own stall limit: a connection held up by the pause
            // fails them. They run until the paused one's stall limit has passed twice.
            let pausedAt = ContinuousClock.now
            var index = 0
            repeat {
                var sibling = TransportRequest(url: server.url("/bytes/\(300_000 + index)"))
                sibling.timeouts = .init(connect: .seconds(10), total: .seconds(30), stall: .seconds(5))
                let fetched = try await transport.data(for: sibling)
                #expect(fetched.data == patternBytes(300_000 + index))
                index += 1
            } while index < 4 || ContinuousClock.now - pausedAt < stall * 2
            #expect(paused.snapshot.completion == nil, "the paused transfer waits for its resume")
            task.resume()
            let completion = try await paused.completion()
            #expect(await monitor.eventsAtCompletion(of: task) == [.paused, .resumed])
            return (completion, paused)
        }
    }

    @Test(
        "a transfer paused mid-body resumes to the exact bytes while another transfer completes meanwhile", arguments: HTTPVersion.allCases)
    func pauseMidBody(_ version: HTTPVersion) async throws {
        try await withSetup(version) { server, transport, monitor in
            let size = 4 << 20
            let paused = PausingDelegate(pauseAtFirstChunk: true)
            let task = transport.start(TransportRequest(url: server.url("/bytes/\(size)?etag=mid")), delegate: paused)
            let atPause = await paused.pausedWithBytes()
            await monitor.paused(task)
            #expect(task.isPaused)
            #expect(atPause > 0 && atPause < size, "paused mid-body")

            // Another transfer on the same transport (over HTTP/2, the same connection)
            // runs to its end while this one is paused...
            let other = try await transport.data(for: TransportRequest(url: server.url("/bytes/300000")))
            #expect(other.data == patternBytes(300_000))
            // ...and not one byte of the paused one was delivered meanwhile.
            #expect(paused.snapshot.body.count == atPause)
            #expect(paused.snapshot.completion == nil)

            task.resume()
            let completion = try await paused.completion()
            guard case .success(let response) = completion.result else {
                Issue.record("the resumed transfer failed: \(completion.result)")
                return
            }
            #expect(response.httpVersion == (version == .http2 ? .http2 : .http1_1))
            let body = paused.snapshot.body
            #expect(body.count == size)
            #expect(body == patternBytes(size), "every byte once, in order")
            #expect(paused.snapshot.progress.last?.received == Int64(size))
            #expect(await monitor.eventsAtCompletion(of: task) == [.paused, .resumed])
        }
    }

    @Test("a transfer paused from another thread delivers nothing after pause() returns", arguments: HTTPVersion.allCases)
    func pauseFromAnotherThread(_ version: HTTPVersion) async throws {
        try await withSetup(version) { server, transport, monitor in
            // The server holds the body after its first bytes until the test opens the
            // gate, so the pause lands mid-body however long this task waits to run.
            let size = 200_000
            let delegate = PausingDelegate(pauseAtFirstChunk: false)
            // No stall or whole-transfer timer: while the gate holds the body, only the
            // test's own pace decides when the pause lands.
            var request = TransportRequest(url: server.url("/gate/pause?bytes=\(size)&first=2000"))
            request.timeouts = .init(connect: .seconds(10), total: nil, stall: nil)
            let task = transport.start(request, delegate: delegate)
            await delegate.firstBytes()
            task.pause()
            let atPause = delegate.snapshot.body.count
            await monitor.paused(task)
            try #require(monitor.events(of: task) == [.paused], "the pause landed before the body's end")
            // The rest of the body is sent while the transfer is paused; another transfer
            // on the same transport completes meanwhile, and not one byte is delivered.
            server.openGate("pause")
            _ = try await transport.data(for: TransportRequest(url: server.url("/bytes/1000")))
            #expect(delegate.snapshot.body.count == atPause)
            task.resume()
            let completion = try await delegate.completion()
            #expect((try? completion.result.get()) != nil, "\(completion.result)")
            #expect(delegate.snapshot.body == patternBytes(size))
        }
    }

    @Test(
        "paused past the stall limit while siblings on its connection run: the siblings finish, then the resumed one does",
        arguments: HTTPVersion.allCases)
    func longPauseBesideSiblings(_ version: HTTPVersion) async throws {
        let size = 8 << 20
        let (completion, paused) = try await pauseBesideSiblings(
            version, path: "/bytes/\(size)?etag=long", size: size, pausedBodyLimit: 256 << 10)
        guard case .success(let response) = completion.result else {
            Issue.record("\(completion.result)")
            return
        }
        #expect(response.statusCode == 200, "the head first delivered")
        #expect(paused.snapshot.body == patternBytes(size), "every byte once, in order")
        if version == .http2 {
            // Past the paused-body limit the stream was let go and the rest asked for.
            #expect(completion.metrics.transactions.count == 2)
            #expect(completion.metrics.transactions.last?.statusCode == 206)
        }
    }

    @Test("over HTTP/2, a paused body within the limit waits in the transport: one request, every byte")
    func heldWithinLimit() async throws {
        let size = 1 << 20
        let (completion, paused) = try await pauseBesideSiblings(.http2, path: "/bytes/\(size)", size: size, pausedBodyLimit: 4 << 20)
        #expect((try? completion.result.get()) != nil, "\(completion.result)")
        #expect(completion.metrics.transactions.count == 1)
        #expect(paused.snapshot.body == patternBytes(size))
    }

    @Test("over HTTP/2, a server that ignores the range sends the body again: the bytes had already are skipped")
    func continuedByWholeBody() async throws {
        let size = 4 << 20
        let (completion, paused) = try await pauseBesideSiblings(
            .http2, path: "/bytes/\(size)?etag=same&ranges=ignore", size: size, pausedBodyLimit: 256 << 10)
        #expect((try? completion.result.get()) != nil, "\(completion.result)")
        #expect(completion.metrics.transactions.last?.statusCode == 200)
        #expect(paused.snapshot.body == patternBytes(size))
    }

    @Test(
        "over HTTP/2, a body let go cannot go on without a strong ETag, or once the resource changed: cannotContinue, nothing foreign delivered",
        arguments: ["/bytes/\(4 << 20)", "/bytes/\(4 << 20)?etag=changing"])
    func cannotContinue(_ path: String) async throws {
        let (completion, paused) = try await pauseBesideSiblings(.http2, path: path, size: 4 << 20, pausedBodyLimit: 256 << 10)
        guard case .failure(let error) = completion.result else {
            Issue.record("expected a failure, got \(completion.result)")
            return
        }
        #expect(error.code == .cannotContinue, "\(error)")
        let body = paused.snapshot.body
        #expect(body.count < 4 << 20)
        #expect(body == patternBytes(body.count), "the bytes delivered are the first representation's")
        #expect(error.bytesReceived == Int64(body.count))
    }

    @Test("paused longer than the stall timeout and the whole budget, then resumed: no timeout", arguments: HTTPVersion.allCases)
    func pausedTimeIsNotSpent(_ version: HTTPVersion) async throws {
        try await withSetup(version) { server, transport, monitor in
            let size = 1 << 20
            let paused = PausingDelegate(pauseAtFirstChunk: true)
            var request = TransportRequest(url: server.url("/bytes/\(size)?etag=spent"))
            request.timeouts = .init(connect: .seconds(10), total: .seconds(3), stall: .milliseconds(1500))
            let task = transport.start(request, delegate: paused)
            _ = await paused.pausedWithBytes()
            await monitor.paused(task)
            // A transfer the server answers after 4 s: awaited, it measures a paused
            // time longer than both timers of the paused transfer.
            var slow = TransportRequest(url: server.url("/slow-first-byte?ms=4000"))
            slow.timeouts = .init(connect: .seconds(10), total: nil, stall: nil)
            let other = try await transport.data(for: slow)
            #expect(other.metrics.totalDuration >= .seconds(4))
            #expect(paused.snapshot.completion == nil, "the paused transfer did not time out")
            task.resume()
            let completion = try await paused.completion()
            #expect((try? completion.result.get()) != nil, "\(completion.result)")
            #expect(paused.snapshot.body == patternBytes(size))
        }
    }

    @Test(
        "a paused transfer is cancelled cleanly: a prompt cancelled completion, its connection slot given back",
        arguments: HTTPVersion.allCases)
    func cancelWhilePaused(_ version: HTTPVersion) async throws {
        // One connection per host: the next request completes only if the cancelled
        // transfer gave its slot back.
        try await withSetup(version, connectionsPerHost: 1) { server, transport, monitor in
            let paused = PausingDelegate(pauseAtFirstChunk: true)
            let task = transport.start(TransportRequest(url: server.url("/bytes/\(4 << 20)")), delegate: paused)
            let atPause = await paused.pausedWithBytes()
            await monitor.paused(task)
            task.cancel()
            let completion = try await paused.completion()
            guard case .failure(let error) = completion.result else {
                Issue.record("expected a cancellation, got \(completion.result)")
                return
            }
            #expect(error.code == .cancelled)
            #expect(paused.snapshot.body.count == atPause, "nothing delivered after the pause, nor at the cancel")
            #expect(paused.snapshot.completions == 1)
            let next = try await transport.data(for: TransportRequest(url: server.url("/bytes/1000")))
            #expect(next.data == patternBytes(1000))
            // Resuming a cancelled transfer does nothing.
            task.resume()
            #expect(paused.snapshot.completions == 1)
        }
    }

    @Test("a transfer paused while it waits for a connection gives up its place; resumed, it runs")
    func pauseWhileWaitingForSlot() async throws {
        try await withSetup(.http1, connectionsPerHost: 1) { server, transport, monitor in
            // The only slot is taken by a transfer that this test ends by cancelling.
            let blocker = PausingDelegate(pauseAtFirstChunk: false)
            let blocking = transport.start(TransportRequest(url: server.url("/stall?bytes=1000&after=10")), delegate: blocker)
            await blocker.firstBytes()
            let waiting = PausingDelegate(pauseAtFirstChunk: false)
            let held = transport.start(TransportRequest(url: server.url("/bytes/5000")), delegate: waiting)
            held.pause()
            await monitor.paused(held)
            let next = PausingDelegate(pauseAtFirstChunk: false)
            // Its wait for the slot counts against no timer: a starved test pool (seen under
            // ASan in CI) must not turn the wait into waitedForConnection.
            var nextRequest = TransportRequest(url: server.url("/bytes/2000"))
            nextRequest.timeouts = .init(connect: .seconds(10), total: nil, stall: nil)
            transport.start(nextRequest, delegate: next)
            blocking.cancel()
            // The transfer queued after the paused one gets the slot first.
            let nextCompletion = try await next.completion()
            #expect((try? nextCompletion.result.get()) != nil, "\(nextCompletion.result)")
            #expect(waiting.snapshot.body.isEmpty)
            #expect(waiting.snapshot.completion == nil)
            held.resume()
            let completion = try await waiting.completion()
            #expect((try? completion.result.get()) != nil, "\(completion.result)")
            #expect(waiting.snapshot.body == patternBytes(5000))
        }
    }
}

/// A delegate that keeps the body and, when asked, pauses its transfer from inside the
/// first body callback (so the pause surely falls mid-body).
final class PausingDelegate: TransferDelegate {
    struct Snapshot {
        var body = Data()
        var progress: [TransferProgress] = []
        var completion: TransferCompletion?
        var completions = 0
    }

    private let pauseAtFirstChunk: Bool
    private let state = Locked(Snapshot())
    private let pausedAt = AsyncStream<Int>.makeStream()
    private let began = AsyncStream<Void>.makeStream()
    private let done = AsyncStream<Void>.makeStream()
    var snapshot: Snapshot { state.withLock { $0 } }

    init(pauseAtFirstChunk: Bool) {
        self.pauseAtFirstChunk = pauseAtFirstChunk
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        let count = state.withLock { state in
            state.body.append(contentsOf: bytes)
            state.progress.append(progress)
            return state.body.count
        }
        if count == bytes.count {
            began.continuation.yield()
            if pauseAtFirstChunk {
                task.pause()
                pausedAt.continuation.yield(count)
            }
        }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        state.withLock {
            $0.completion = completion
            $0.completions += 1
        }
        done.continuation.yield()
        // A transfer that ends before its first chunk (a timeout, an error) ends the
        // waits for it too: the test then fails on what it finds, instead of hanging.
        began.continuation.finish()
        pausedAt.continuation.finish()
    }

    /// The body's size when the first chunk paused the transfer; -1 when the transfer
    /// ended before a first chunk.
    func pausedWithBytes() async -> Int {
        for await count in pausedAt.stream { return count }
        return -1
    }

    func firstBytes() async {
        for await _ in began.stream { break }
    }

    /// The completion, once it came. Throws instead when the test's task is cancelled
    /// first (its time limit ran out), so that the test fails rather than the process.
    func completion() async throws -> TransferCompletion {
        for await _ in done.stream { break }
        return try #require(snapshot.completion, "the transfer had not completed when the wait ended")
    }
}

/// Records the pauses and resumes the transport reports, and lets a test await one.
final class PauseMonitor: TransportEventMonitor {
    enum Event: Equatable {
        case paused, resumed
    }

    private let recorded = Locked<[UInt64: [Event]]>([:])
    private let changes = Locked<[UInt64: [CheckedContinuation<Void, Never>]]>([:])

    func events(of task: TransferTask) -> [Event] { recorded.withLock { $0[task.id] ?? [] } }

    private let completed = Locked<Set<UInt64>>([])

    func transferDidPause(_ task: TransferTask) { record(.paused, task) }
    func transferDidResume(_ task: TransferTask) { record(.resumed, task) }
    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        completed.withLock { _ = $0.insert(task.id) }
        record(nil, task)
    }

    /// Returns once the transport's thread has paused `task`, or once it completed (a
    /// test that finds no pause then fails instead of waiting for ever).
    func paused(_ task: TransferTask) async {
        await withCheckedContinuation { continuation in
            let already = recorded.withLock { recorded -> Bool in
                guard recorded[task.id]?.last == .paused || completed.withLock({ $0.contains(task.id) }) else {
                    changes.withLock { $0[task.id, default: []].append(continuation) }
                    return false
                }
                return true
            }
            if already { continuation.resume() }
        }
    }

    /// The events of `task` once the monitor saw it complete: monitors are told on their
    /// own queue, so a delegate's completion can come before the monitor's last events.
    func eventsAtCompletion(of task: TransferTask) async -> [Event] {
        await withCheckedContinuation { continuation in
            let done = recorded.withLock { _ -> Bool in
                guard completed.withLock({ $0.contains(task.id) }) else {
                    changes.withLock { $0[task.id, default: []].append(continuation) }
                    return false
                }
                return true
            }
            if done { continuation.resume() }
        }
        // A waiter woken by a pause before the completion asks again.
        guard completed.withLock({ $0.contains(task.id) }) else { return await eventsAtCompletion(of: task) }
        return events(of: task)
    }

    /// Records `event` (`nil`: the completion) and wakes who waits for a pause.
    private func record(_ event: Event?, _ task: TransferTask) {
        let waiting = recorded.withLock { recorded -> [CheckedContinuation<Void, Never>] in
            if let event { recorded[task.id, default: []].append(event) }
            guard event != .resumed else { return [] }
            return changes.withLock { $0.removeValue(forKey: task.id) ?? [] }
        }
        for continuation in waiting { continuation.resume() }
    }
}
