import Foundation
import WebImageConcurrency
import WebImageCore

/// A whole response: its head, its body, and what it cost.
public struct FetchedData: Sendable {
    public var response: TransportResponse
    /// Empty for `HEAD`, for a `304 Not Modified` and for bodiless responses.
    public var data: Data
    public var metrics: TransferMetrics

    public init(response: TransportResponse, data: Data, metrics: TransferMetrics) {
        self.response = response
        self.data = data
        self.metrics = metrics
    }
}

extension Transporting {
    /// Fetches a whole body. Cancelling the calling task cancels the transfer.
    ///
    /// - Throws: `TransportError`; a `304` answering the request's validators is not an
    ///   error but a response whose `TransportResponse.isNotModified` is `true`.
    public func data(for request: TransportRequest) async throws(TransportError) -> FetchedData {
        let result = await withCancellableContinuation { resume in
            start(request, delegate: BodyCollector(completion: resume))
        }
        return try result.get()
    }

    /// Starts a transfer that delivers its whole body to `completion`, on the transport's
    /// thread. The returned task cancels it.
    @discardableResult
    public func data(
        for request: TransportRequest,
        completion: @escaping @Sendable (Result<FetchedData, TransportError>) -> Void
    ) -> TransferTask {
        let collector = BodyCollector(completion: completion)
        return start(request, delegate: collector)
    }
}

/// Gathers a body into one buffer, sized up front from `Content-Length`, and hands the
/// whole response to `completion`.
private final class BodyCollector: TransferDelegate, @unchecked Sendable {
    // The buffer is touched only from the transport's thread, one event at a time.
    private var data = Data()
    private let completion: @Sendable (Result<FetchedData, TransportError>) -> Void

    init(completion: @escaping @Sendable (Result<FetchedData, TransportError>) -> Void) {
        self.completion = completion
    }

    func transfer(_ task: TransferTask, didReceive response: TransportResponse) {
        // Trust a Content-Length only so far: a lying server must not make us reserve
        // gigabytes. Past 16 MiB the buffer grows as bytes arrive.
        if let expected = response.expectedContentLength, expected > 0 {
            data.reserveCapacity(Int(min(expected, 16 << 20)))
        }
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        data.append(contentsOf: bytes)
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        let result = completion.result.map { FetchedData(response: $0, data: data, metrics: completion.metrics) }
        data = Data()
        self.completion(result)
    }
}
