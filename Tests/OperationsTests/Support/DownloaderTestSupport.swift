import Foundation
import Synchronization
import WebImageCallbackRegistry
import WebImageOperations

@testable import WebImageConcurrency
@testable import WebImageCore

typealias DownloadRegistry = CallbackRegistry<DownloadKey, DecodedImage, DownloadResult, DownloadError>

/// Keeps what one download subscriber heard.
final class DownloadLog: Sendable {
    private let events = Locked<[DownloadEvent]>([])
    private let ended = AsyncStream<Void>.makeStream()

    var all: [DownloadEvent] { events.withLock { $0 } }

    var results: [Result<DownloadResult, DownloadError>] {
        all.compactMap { if case .completed(let result) = $0 { result } else { nil } }
    }

    var partialImages: [DecodedImage] {
        all.compactMap { if case .partial(let image) = $0 { image } else { nil } }
    }

    var handler: @Sendable (DownloadEvent) -> Void {
        { event in
            self.events.withLock { $0.append(event) }
            if event.isCompletion { self.ended.continuation.yield() }
        }
    }

    func result() async -> Result<DownloadResult, DownloadError> {
        if let first = results.first { return first }
        for await _ in ended.stream { break }
        return results.first!
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
