import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageTransport

@Suite("CurlTransport.shutdown() ends every transfer, refuses new ones and ends the thread", .timeLimit(.minutes(2)))
struct TransportShutdownTests {
    @Test("a running transfer completes once, invalidated, and shutdown returns after it")
    func runningTransfer() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let recorder = StreamingRecorder()
            transport.start(heldRequest(server, "/gate/running?bytes=100000&first=1000"), delegate: recorder)
            await recorder.firstBytes()

            await transport.shutdown()
            expectShutdownOnce(recorder.snapshot.completion, count: recorder.snapshot.completions)
            #expect(recorder.snapshot.body.count == 1000, "no byte after the first chunk: the gate never opened")
        }
    }

    @Test("a paused transfer completes once, invalidated")
    func pausedTransfer() async throws {
        try await withServer { server in
            let monitor = PauseMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [monitor]))
            let paused = PausingDelegate(pauseAtFirstChunk: true)
            let task = transport.start(heldRequest(server, "/gate/paused?bytes=100000&first=1000"), delegate: paused)
            _ = await paused.pausedWithBytes()
            await monitor.paused(task)

            await transport.shutdown()
            expectShutdownOnce(paused.snapshot.completion, count: paused.snapshot.completions)
        }
    }

    @Test("a transfer waiting for a connection slot completes once, invalidated, and is never sent")
    func waitingForSlot() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1))
            let holder = StreamingRecorder()
            transport.start(heldRequest(server, "/gate/slot?bytes=1000&first=100"), delegate: holder)
            await holder.firstBytes()
            // The one connection is busy: this one waits in the transport, in the order
            // the loop takes commands, before the shutdown.
            let waiting = StreamingRecorder()
            transport.start(heldRequest(server, "/bytes/100?waiting=1"), delegate: waiting)

            await transport.shutdown()
            expectShutdownOnce(holder.snapshot.completion, count: holder.snapshot.completions)
            expectShutdownOnce(waiting.snapshot.completion, count: waiting.snapshot.completions)
            #expect(!server.requests.contains { $0.uri == "/bytes/100?waiting=1" })
        }
    }

    @Test("a transfer awaiting the challenge handler's answer completes once, invalidated; the late answer is dropped")
    func awaitingChallenge() async throws {
        try await withServer { server in
            let handler = HeldChallengeHandler()
            let transport = CurlTransport(configuration: .init(challengeHandler: handler))
            let recorder = StreamingRecorder()
            transport.start(heldRequest(server, "/basic-auth/ann/secret"), delegate: recorder)
            await handler.asked()

            await transport.shutdown()
            expectShutdownOnce(recorder.snapshot.completion, count: recorder.snapshot.completions)
            await handler.answer(.useCredential(Credential(user: "ann", password: "secret")))
            #expect(recorder.snapshot.completions == 1)
            #expect(server.requests.count == 1, "the answer sent no retry")
        }
    }

    @Test("the monitors hear the invalidation once, after the completions of the transfers it ended; not for a graceful drop")
    func invalidationEvent() async throws {
        try await withServer { server in
            let monitor = InvalidationMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [monitor]))
            let first = StreamingRecorder()
            let second = StreamingRecorder()
            transport.start(heldRequest(server, "/gate/invalid-a?bytes=10000&first=100"), delegate: first)
            transport.start(heldRequest(server, "/gate/invalid-b?bytes=10000&first=100"), delegate: second)
            await first.firstBytes()
            await second.firstBytes()

            await transport.shutdown()
            await transport.shutdown()
            expectShutdownOnce(first.snapshot.completion, count: first.snapshot.completions)
            expectShutdownOnce(second.snapshot.completion, count: second.snapshot.completions)
            let events = await monitor.untilInvalidated()
            #expect(events == [.completed(.invalidated), .completed(.invalidated), .invalidated(2)])

            // Refused afterwards: reported as started and completed, no second invalidation.
            let refused = await transferError(transport, TransportRequest(url: server.url("/bytes/10")))
            #expect(refused?.code == .transportClosed)
            let control = InvalidationMonitor()
            let other = CurlTransport(configuration: .init(eventMonitors: [control, monitor]))
            _ = try await other.data(for: TransportRequest(url: server.url("/bytes/10")))
            await other.shutdown()
            // The same shared queue delivers both monitors in order: once `control` heard
            // the second transport's invalidation, `monitor` has heard everything before.
            #expect(await control.untilInvalidated() == [.completed(nil), .invalidated(0)])
            #expect(monitor.events.filter { $0 == .invalidated(2) }.count == 1)
        }
    }

    @Test("a transfer started after the shutdown completes at once as transportClosed, after start returned")
    func startAfterShutdown() async throws {
        try await withServer { server in
            let monitor = RecordingMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [monitor]))
            await transport.shutdown()

            let recorder = StreamingRecorder()
            let task = transport.start(TransportRequest(url: server.url("/bytes/100")), delegate: recorder)
            let completion = await recorder.completion()
            #expect(completion.result.error?.code == .transportClosed, "\(completion.result)")
            #expect(completion.result.error?.url == server.url("/bytes/100"))
            #expect(recorder.snapshot.completions == 1)
            #expect(server.requests.isEmpty)
            #expect(monitor.events == [.started(server.url("/bytes/100")), .completed(false)])
            task.cancel()  // does nothing now, and does not crash
            #expect(recorder.snapshot.completions == 1)

            let error = await transferError(transport, TransportRequest(url: server.url("/bytes/100")))
            #expect(error?.code == .transportClosed)
        }
    }

    @Test("a transfer started while the shutdown runs (from a completion it delivered) completes as transportClosed")
    func startDuringShutdown() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let followUp = StreamingRecorder()
            let restarting = CompletionHook { _ in
                transport.start(TransportRequest(url: server.url("/bytes/100?followUp=1")), delegate: followUp)
            }
            transport.start(heldRequest(server, "/gate/during?bytes=1000&first=100"), delegate: restarting)
            await restarting.firstBytes()

            await transport.shutdown()
            #expect(restarting.completion?.result.error?.code == .invalidated)
            let completion = await followUp.completion()
            #expect(completion.result.error?.code == .transportClosed, "\(completion.result)")
            #expect(!server.requests.contains { $0.uri == "/bytes/100?followUp=1" })
        }
    }

    @Test("shutdown called twice, concurrently, and in its callback form: every call returns once the loop has ended")
    func repeatedAndConcurrent() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let recorder = StreamingRecorder()
            transport.start(heldRequest(server, "/gate/twice?bytes=1000&first=100"), delegate: recorder)
            await recorder.firstBytes()

            // Each call returns only after the transfer has completed.
            let completionsSeen = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        await transport.shutdown()
                        return recorder.snapshot.completions
                    }
                }
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        transport.shutdown { done.resume() }
                    }
                    return recorder.snapshot.completions
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(completionsSeen == [1, 1, 1, 1, 1])
            await transport.shutdown()
            let called = Locked(false)
            // Once the loop has ended, the callback runs at once, on the calling thread.
            transport.shutdown { called.withLock { $0 = true } }
            #expect(called.withLock { $0 })
            expectShutdownOnce(recorder.snapshot.completion, count: recorder.snapshot.completions)
        }
    }

    @Test("the transport's thread is gone when shutdown returns or calls back")
    func threadEnds() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let thread = await loopThread(of: transport, server)
            #expect(thread.name == "webimage.curl")
            #expect(ThreadIdentity.isRunning(thread.id))

            // Checked in the callback itself, which runs as soon as the thread has ended.
            let runningAtCallback = await withCheckedContinuation { continuation in
                transport.shutdown { continuation.resume(returning: ThreadIdentity.isRunning(thread.id)) }
            }
            #expect(!runningAtCallback, "the loop's thread \(thread.id) was joined before the callback")
            await transport.shutdown()
            #expect(!ThreadIdentity.isRunning(thread.id))
        }
    }

    @Test("a transport dropped without shutdown still ends its thread")
    func droppedTransportEndsItsThread() async throws {
        try await withServer { server in
            var transport: CurlTransport? = CurlTransport()
            let thread = await loopThread(of: transport!, server)
            transport = nil
            // Nothing announces the end of a dropped transport's thread.
            #expect(await eventually(within: .seconds(30)) { !ThreadIdentity.isRunning(thread.id) })
        }
    }

    #if DEBUG
        @Test("debug builds record a transport deinitialised without shutdown, and not one that was shut down")
        func missedShutdownIsRecorded() async {
            var dropped: CurlTransport? = CurlTransport()
            let droppedSerial = dropped!.serial
            let before = MissedShutdowns.count
            dropped = nil
            #expect(MissedShutdowns.contains(droppedSerial))
            #expect(MissedShutdowns.count > before)

            var closed: CurlTransport? = CurlTransport()
            let closedSerial = closed!.serial
            await closed!.shutdown()
            closed = nil
            #expect(!MissedShutdowns.contains(closedSerial))
            #expect(droppedSerial != closedSerial)
        }
    #endif
}

// MARK: Helpers

/// A request the server holds (no timeouts: only the shutdown ends it, however slow the
/// machine).
private func heldRequest(_ server: LoopbackServer, _ path: String) -> TransportRequest {
    var request = TransportRequest(url: server.url(path))
    request.timeouts = .init(connect: nil, total: nil, stall: nil)
    return request
}

/// The completion of a transfer the shutdown ended: invalidated, saying so, delivered once.
private func expectShutdownOnce(_ completion: TransferCompletion?, count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(count == 1, "completions", sourceLocation: sourceLocation)
    let error = completion?.result.error
    #expect(error?.code == .invalidated, "\(String(describing: completion?.result))", sourceLocation: sourceLocation)
    #expect(error?.message.contains("shut down") == true, "\(String(describing: error))", sourceLocation: sourceLocation)
}

/// The transport's loop thread: its id and name, read in a completion it delivered.
private func loopThread(of transport: CurlTransport, _ server: LoopbackServer) async -> (id: String, name: String?) {
    await withCheckedContinuation { continuation in
        transport.data(for: TransportRequest(url: server.url("/bytes/10"))) { _ in
            continuation.resume(returning: (ThreadIdentity.current(), ThreadNames.current()))
        }
    }
}

/// Threads by their Linux thread id, as `/proc` shows them.
private enum ThreadIdentity {
    /// The calling thread's id.
    static func current() -> String {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.map(String.init) ?? ""
    }

    /// Whether the thread with that id is still a thread of this process.
    static func isRunning(_ id: String) -> Bool {
        !id.isEmpty && FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }
}

/// Records completions and invalidations, on the monitors' shared queue, and says when
/// an invalidation arrived.
private final class InvalidationMonitor: TransportEventMonitor {
    enum Event: Equatable {
        /// A completion, with its error code (`nil`: it succeeded).
        case completed(TransportError.Code?)
        case invalidated(Int)
    }

    private let recorded = Locked<[Event]>([])
    private let invalidations = AsyncStream<Void>.makeStream()
    var events: [Event] { recorded.withLock { $0 } }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        recorded.withLock { $0.append(.completed(completion.result.error?.code)) }
    }

    func transportDidInvalidate(endedTransfers: Int) {
        recorded.withLock { $0.append(.invalidated(endedTransfers)) }
        invalidations.continuation.yield()
    }

    /// Waits for the first invalidation, then returns every event so far.
    func untilInvalidated() async -> [Event] {
        for await _ in invalidations.stream { break }
        return events
    }
}

/// A delegate that runs `onComplete` in its completion, on the transport's thread.
private final class CompletionHook: TransferDelegate {
    private let onComplete: @Sendable (TransferCompletion) -> Void
    private let recorded = Locked<TransferCompletion?>(nil)
    private let began = AsyncStream<Void>.makeStream()
    var completion: TransferCompletion? { recorded.withLock { $0 } }

    init(_ onComplete: @escaping @Sendable (TransferCompletion) -> Void) {
        self.onComplete = onComplete
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        began.continuation.yield()
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        recorded.withLock { $0 = completion }
        onComplete(completion)
    }

    func firstBytes() async {
        for await _ in began.stream { break }
    }
}
