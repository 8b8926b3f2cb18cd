import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency

@Suite("CurlTransport.transfersInFlight(): what runs, each with its URL, state and progress", .timeLimit(.minutes(2)))
struct TransfersInFlightTests {
    @Test("running, waiting for a connection, paused and awaiting a challenge's answer, in the order started; empty once done")
    func everyState() async throws {
        try await withServer { server in
            let handler = HeldChallengeHandler()
            // One connection per host; a second name for the server is a second host.
            let other = "cat.test:\(server.port):127.0.0.1"
            let transport = CurlTransport(
                configuration: .init(maximumConnectionsPerHost: 1, challengeHandler: handler, resolvedHosts: [other]))

            let recorders = (0..<4).map { _ in BodyCounter() }
            let challenged = transport.start(held(server.url("/basic-auth/ann/secret")), delegate: recorders[0])
            await handler.asked()
            let running = transport.start(held(server.url("/gate/listed?bytes=10000&first=100")), delegate: recorders[1])
            await recorders[1].received(100)
            let waiting = transport.start(held(server.url("/bytes/50?waiting=1")), delegate: recorders[2])
            let pausedURL = URL(string: "http://cat.test:\(server.port)/gate/paused-listed?bytes=5000&first=200")!
            let paused = transport.start(held(pausedURL), delegate: recorders[3])
            await recorders[3].received(200)
            paused.pause()

            // Every command above reached the transport's thread before this one.
            let listed = await transport.transfersInFlight()
            #expect(listed.map(\.task) == [challenged, running, waiting, paused])
            #expect(listed.map(\.state) == [.awaitingChallengeAnswer, .running, .waitingForConnection, .paused])
            let urls = [
                server.url("/basic-auth/ann/secret"), server.url("/gate/listed?bytes=10000&first=100"), server.url("/bytes/50?waiting=1"),
                pausedURL,
            ]
            #expect(listed.map(\.url) == urls)
            #expect(listed.map(\.requestURL) == urls)
            #expect(listed[1].progress == TransferProgress(received: 100, expected: 10000))
            #expect(listed[2].progress == TransferProgress(received: 0, expected: nil))
            #expect(listed[3].progress == TransferProgress(received: 200, expected: 5000))

            await handler.answer(.cancel)
            server.openGate("listed")
            server.openGate("paused-listed")
            paused.resume()
            for recorder in recorders { await recorder.completed() }
            #expect(await transport.transfersInFlight().isEmpty)
            await transport.shutdown()
            #expect(await transport.transfersInFlight().isEmpty)
        }
    }
}

/// Counts a transfer's body bytes; says when a count was reached, and when it completed.
private final class BodyCounter: TransferDelegate {
    private let count = Locked<(bytes: Int, done: Bool)>((0, false))
    private let changes = AsyncStream<Void>.makeStream()

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        count.withLock { $0.bytes += bytes.count }
        changes.continuation.yield()
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        count.withLock { $0.done = true }
        changes.continuation.yield()
    }

    /// Waits until at least `bytes` body bytes have arrived.
    func received(_ bytes: Int) async {
        await changes.stream.wait { count.withLock { $0.bytes } >= bytes }
    }

    /// Waits for the completion.
    func completed() async {
        await changes.stream.wait { count.withLock { $0.done } }
    }
}

/// A request without timeouts: only the test ends it, however slow the machine.
private func held(_ url: URL) -> TransportRequest {
    var request = TransportRequest(url: url)
    request.timeouts = .init(connect: nil, total: nil, stall: nil)
    return request
}
