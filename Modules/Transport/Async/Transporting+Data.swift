import Foundation
import Synchronization

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
    /// - Throws: ``TransportError``; a `304` answering the request's validators is not an
    ///   error but a response whose ``TransportResponse/isNotModified`` is `true`.
    public func data(for request: TransportRequest) async throws(TransportError) -> FetchedData {
        let collector = BodyCollector()
        let result: Result<FetchedData, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.begin(continuation)
                let task = start(request, delegate: collector)
                collector.attach(task)
            }
        } onCancel: {
            collector.cancel()
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

/// Gathers a body into one buffer, sized up front from `Content-Length`.
private final class BodyCollector: TransferDelegate, @unchecked Sendable {
    // The buffer is touched only from the transport's thread, one event at a time.
    private var data = Data()
    private var response: TransportResponse?
    private let state = Locked<(continuation: CheckedContinuation<Result<FetchedData, TransportError>, Never>?, task: TransferTask?, cancelled: Bool)>((nil, nil, false))
    private let completion: (@Sendable (Result<FetchedData, TransportError>) -> Void)?

    init(completion: (@Sendable (Result<FetchedData, TransportError>) -> Void)? = nil) {
        self.completion = completion
    }

    func begin(_ continuation: CheckedContinuation<Result<FetchedData, TransportError>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Records the task; cancels it at once when the caller was cancelled before it existed.
    func attach(_ task: TransferTask) {
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> TransferTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    func transfer(_ task: TransferTask, didReceive response: TransportResponse) {
        self.response = response
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
        if let callback = self.completion { callback(result) }
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}
