import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Receives one attempt's transfer: keeps the body, feeds the attempt's partial-image
/// maker (and closes it when the transfer ends), passes the head through the response
/// modifier, and reports the end to its operation.
final class AttemptDelegate: TransferDelegate {
    private struct State {
        var body = Data()
        var response: TransportResponse?
        var rejection: DownloadError?
    }

    /// The most reserved up front for a declared length; a lying Content-Length cannot
    /// make us allocate more before the bytes exist.
    private static let reservationCap = 16 << 20

    private let operation: DownloadOperation
    private let attempt: Int
    private let feeder: ProgressiveFeeder?
    private let state = Locked(State())

    init(operation: DownloadOperation, attempt: Int, feeder: ProgressiveFeeder?) {
        self.operation = operation
        self.attempt = attempt
        self.feeder = feeder
    }

    func transfer(_ task: TransferTask, didReceive response: TransportResponse) {
        switch operation.didReceive(response) {
        case .success(let accepted):
            state.withLock { state in
                state.response = accepted
                if let length = accepted.expectedContentLength, length > 0 {
                    state.body.reserveCapacity(Int(min(length, Int64(Self.reservationCap))))
                }
            }
            operation.didAccept(accepted)
        case .failure(let rejection):
            state.withLock { $0.rejection = rejection }
            task.cancel()
        }
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        state.withLock { $0.body.append(contentsOf: bytes) }
        operation.didReceive(progress)
        feeder?.feed(bytes)
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        feeder?.close()
        let kept = state.withLock { state in
            defer { state = State() }
            return state
        }
        let outcome: Result<DownloadResult, DownloadError>
        if let rejection = kept.rejection {
            outcome = .failure(rejection)
        } else {
            outcome = completion.result
                .map { DownloadResult(data: kept.body, response: kept.response ?? $0, metrics: completion.metrics, attempts: attempt) }
                .mapError(DownloadError.init)
        }
        operation.attemptDidEnd(attempt, outcome: outcome)
    }
}
