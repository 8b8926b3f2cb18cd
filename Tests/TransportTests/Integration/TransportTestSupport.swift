import Foundation
import Synchronization
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server for one test, shut down when the test's scope ends.
func withServer<R>(
    _ configuration: LoopbackServer.Configuration = .init(),
    _ body: (LoopbackServer) async throws -> R
) async throws -> R {
    try await LoopbackServer.withServer(configuration, body)
}

/// The error a transfer failed with, or `nil` when it succeeded.
func transferError(_ transport: CurlTransport, _ request: TransportRequest) async -> TransportError? {
    do {
        _ = try await transport.data(for: request)
        return nil
    } catch {
        return error
    }
}

/// The error a transfer failed with, and how long it took until the transport delivered
/// the completion (measured on its thread, so a busy cooperative pool cannot stretch it).
func timedTransferError(_ transport: CurlTransport, _ request: TransportRequest) async -> (error: TransportError?, elapsed: Duration) {
    let recorder = StreamingRecorder()
    let started = ContinuousClock.now
    transport.start(request, delegate: recorder)
    let completion = await recorder.completion()
    let elapsed = recorder.snapshot.completedAt! - started
    if case .failure(let error) = completion.result { return (error, elapsed) }
    return (nil, elapsed)
}

/// Notes when transfers complete, on the transport's thread (`.immediate`).
final class CompletionClock: TransportEventMonitor {
    var delivery: CallbackDelivery { .immediate }
    private let instants = Locked<[ContinuousClock.Instant]>([])
    var completions: [ContinuousClock.Instant] { instants.withLock { $0 } }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        instants.withLock { $0.append(ContinuousClock.now) }
    }
}

/// The bytes the server's /bytes/<n> route sends.
func patternBytes(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}

/// Records every event of every transfer, in order, for assertions.
final class RecordingMonitor: TransportEventMonitor {
    /// On the transport's thread, so that the events are all in by the completion.
    var delivery: CallbackDelivery { .immediate }
    enum Event: Equatable {
        case started(URL)
        case response(Int)
        case bytes(Int)
        case redirect(URL)
        case trust(String, ServerTrustError.Code?)
        case challenge(AuthenticationMethod, ChallengeDisposition)
        case completed(Bool)
    }

    private let recorded = Locked<[Event]>([])
    var events: [Event] { recorded.withLock { $0 } }

    func transferDidStart(_ task: TransferTask, request: TransportRequest) { append(.started(request.url)) }
    func transfer(_ task: TransferTask, didReceive response: TransportResponse) { append(.response(response.statusCode)) }
    func transfer(_ task: TransferTask, didReceiveBytes count: Int, progress: TransferProgress) { append(.bytes(count)) }
    func transfer(_ task: TransferTask, willRedirectTo url: URL, from response: TransportResponse) { append(.redirect(url)) }
    func transfer(_ task: TransferTask, didEvaluateServerTrustFor host: String, error: ServerTrustError?) {
        append(.trust(host, error?.code))
    }
    func transfer(_ task: TransferTask, didReceive challenge: AuthenticationChallenge, disposition: ChallengeDisposition) {
        append(.challenge(challenge.protectionSpace.method, disposition))
    }
    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        if case .success = completion.result { append(.completed(true)) } else { append(.completed(false)) }
    }

    private func append(_ event: Event) { recorded.withLock { $0.append(event) } }
}

/// A delegate that keeps every event with the thread it arrived on.
final class StreamingRecorder: TransferDelegate {
    struct Snapshot {
        var response: TransportResponse?
        var chunks: [Int] = []
        var progress: [TransferProgress] = []
        var body = Data()
        var completion: TransferCompletion?
        /// When the completion arrived, on the transport's thread: a busy test pool
        /// cannot stretch it.
        var completedAt: ContinuousClock.Instant?
        var completions = 0
        /// The threads events arrived on (pthread identities).
        var threads: Set<UInt> = []
        /// The name of the thread the completion arrived on, as the system shows it.
        var completionThreadName: String?
    }

    private let state = Locked(Snapshot())
    private let done = AsyncStream<Void>.makeStream()
    private let bodyBegan = AsyncStream<Void>.makeStream()
    var snapshot: Snapshot { state.withLock { $0 } }

    func transfer(_ task: TransferTask, didReceive response: TransportResponse) {
        state.withLock {
            $0.response = response
            $0.threads.insert(UInt(pthread_self()))
        }
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        let first = state.withLock {
            let first = $0.chunks.isEmpty
            $0.chunks.append(bytes.count)
            $0.progress.append(progress)
            $0.body.append(contentsOf: bytes)
            $0.threads.insert(UInt(pthread_self()))
            return first
        }
        if first { bodyBegan.continuation.yield() }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        state.withLock {
            $0.completion = completion
            $0.completedAt = ContinuousClock.now
            $0.completions += 1
            $0.threads.insert(UInt(pthread_self()))
            $0.completionThreadName = ThreadNames.current()
        }
        done.continuation.yield()
    }

    /// Waits for the first body bytes.
    func firstBytes() async {
        for await _ in bodyBegan.stream { break }
    }

    /// Waits for the completion.
    func completion() async -> TransferCompletion {
        for await _ in done.stream { break }
        return snapshot.completion!
    }
}
