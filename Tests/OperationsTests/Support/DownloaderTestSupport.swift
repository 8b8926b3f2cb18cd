import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageOperations
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

typealias DownloadRegistry = CallbackRegistry<DownloadKey, ReceivedBody, DownloadResult, DownloadError>

/// Keeps what one download subscriber heard.
final class DownloadLog: Sendable {
    private let events = Locked<[DownloadEvent]>([])
    private let ended = AsyncStream<Void>.makeStream()

    var all: [DownloadEvent] { events.withLock { $0 } }

    var results: [Result<DownloadResult, DownloadError>] {
        all.compactMap { if case .completed(let result) = $0 { result } else { nil } }
    }

    /// The bodies a progressive download handed out, in order.
    var receivedBodies: [ReceivedBody] {
        all.compactMap { if case .partial(let body) = $0 { body } else { nil } }
    }

    var handler: @Sendable (DownloadEvent) -> Void {
        { event in
            self.events.withLock { $0.append(event) }
            if event.isCompletion { self.ended.continuation.yield() }
        }
    }

    /// The completion. A task cancelled before it came (a time limit) records an issue
    /// and gets a failure no download gives, rather than crashing the run.
    func result() async -> Result<DownloadResult, DownloadError> {
        await ended.stream.wait { !results.isEmpty }
        if let first = results.first { return first }
        Issue.record("no completion before the task was cancelled")
        return .failure(.requestRejected(reason: "no completion before the task was cancelled"))
    }
}

extension Result where Success == DownloadResult, Failure == DownloadError {
    var data: Data? { try? get().data }
}

extension DownloadError {
    /// The transport error code, for comparisons.
    var transportCode: TransportError.Code? {
        if case .transport(let error) = self { return error.code }
        return nil
    }
}
