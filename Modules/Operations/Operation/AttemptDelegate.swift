import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Receives one attempt's transfer: keeps the body, feeds the attempt's partial-image
/// maker (and closes it when the transfer ends), passes the head through the response
/// modifier, and reports the end to its operation.
///
/// An attempt that asks to continue kept bytes (``AttemptResume``) starts its body with
/// them when the server answers with a 206 that follows on, and counts its progress from
/// them; a 206 that does not is refused (the transfer is cancelled and the operation asks
/// again for the whole body).
final class AttemptDelegate: TransferDelegate {
    private struct State {
        var body = Data()
        var response: TransportResponse?
        var rejection: DownloadError?
        var resume: AttemptResume
        /// The kept bytes the body started with, and the whole length then: this transfer's
        /// own progress counts from there.
        var offset: Int64 = 0
        var completeLength: Int64?
    }

    /// The most reserved up front for a declared length; a lying Content-Length cannot
    /// make us allocate more before the bytes exist.
    private static let reservationCap = 16 << 20

    private let operation: DownloadOperation
    private let attempt: Int
    private let feeder: ProgressiveFeeder?
    private let state: Locked<State>

    init(operation: DownloadOperation, attempt: Int, feeder: ProgressiveFeeder?, resume: AttemptResume) {
        self.operation = operation
        self.attempt = attempt
        self.feeder = feeder
        self.state = Locked(State(resume: resume))
    }

    func transfer(_ task: TransferTask, didReceive response: TransportResponse) {
        switch state.withLock({ $0.resume.accept(response) }) {
        case .whole:
            accept(response, task: task, prefix: nil)
        case .append(let prefix, let completeLength):
            accept(AttemptResume.wholeResponse(response, completeLength: completeLength), task: task, prefix: prefix)
        case .refuse:
            task.cancel()  // the completion asks for the whole body again
        }
    }

    private func accept(_ response: TransportResponse, task: TransferTask, prefix: Data?) {
        switch operation.didReceive(response) {
        case .success(let accepted):
            state.withLock { state in
                state.response = accepted
                if let prefix {
                    state.body = prefix
                    state.offset = Int64(prefix.count)
                    state.completeLength = accepted.expectedContentLength
                }
                if let length = accepted.expectedContentLength, length > state.offset {
                    state.body.reserveCapacity(Int(min(length, state.offset + Int64(Self.reservationCap))))
                }
            }
            if let prefix {
                prefix.withUnsafeBytes { feeder?.feed($0) }
                operation.didReceive(TransferProgress(received: Int64(prefix.count), expected: accepted.expectedContentLength))
            } else {
                operation.didAccept(accepted)
            }
        case .failure(let rejection):
            state.withLock { $0.rejection = rejection }
            task.cancel()
        }
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        let (offset, completeLength) = state.withLock { state in
            state.body.append(contentsOf: bytes)
            return (state.offset, state.completeLength)
        }
        operation.didReceive(
            offset == 0 ? progress : TransferProgress(received: offset + progress.received, expected: completeLength))
        feeder?.feed(bytes)
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
        feeder?.close()
        let kept = state.withLock { state in
            defer { state = State(resume: state.resume) }
            return state
        }
        if kept.rejection == nil, kept.resume.needsRestart(after: completion.result) {
            operation.restartAttempt(attempt)
            return
        }
        let outcome: Result<DownloadResult, DownloadError>
        if let rejection = kept.rejection {
            outcome = .failure(rejection)
        } else {
            outcome = completion.result
                .map { DownloadResult(data: kept.body, response: kept.response ?? $0, metrics: completion.metrics, attempts: attempt) }
                .mapError(DownloadError.init)
        }
        let update = kept.resume.update(after: outcome.failure, body: kept.body)
        operation.attemptDidEnd(attempt, outcome: outcome, update: update)
    }
}

extension Result {
    /// The failure, or `nil` for a success.
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
