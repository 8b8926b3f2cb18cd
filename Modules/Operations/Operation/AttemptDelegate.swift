import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Receives one attempt's transfer: keeps the body (and, for a progressive download,
/// hands it to the subscribers as it grows), passes the head through the response
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
        var handouts = BodyHandoutSchedule()

        /// The body to hand out now, if the download hands it out and one is due.
        mutating func dueHandout(handsOutBody: Bool) -> Data? {
            handsOutBody && handouts.isDue(size: body.count) ? body : nil
        }
    }

    /// The most reserved up front for a declared length; a lying Content-Length cannot
    /// make us allocate more before the bytes exist.
    private static let reservationCap = 16 << 20

    private let operation: DownloadOperation
    private let attempt: Int
    /// Whether the subscribers get the body as it grows (``DownloadOptions/progressive``).
    private let handsOutBody: Bool
    private let state: Locked<State>

    init(operation: DownloadOperation, attempt: Int, handsOutBody: Bool, resume: AttemptResume) {
        self.operation = operation
        self.attempt = attempt
        self.handsOutBody = handsOutBody
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
            let handout = state.withLock { state -> Data? in
                state.response = accepted
                if let prefix {
                    state.body = prefix
                    state.offset = Int64(prefix.count)
                    state.completeLength = accepted.expectedContentLength
                }
                if let length = accepted.expectedContentLength, length > state.offset {
                    state.body.reserveCapacity(Int(min(length, state.offset + Int64(Self.reservationCap))))
                }
                return state.dueHandout(handsOutBody: handsOutBody)
            }
            if let prefix {
                operation.didReceive(TransferProgress(received: Int64(prefix.count), expected: accepted.expectedContentLength))
                if let handout { operation.didReceive(ReceivedBody(bytes: handout, attempt: attempt)) }
            } else {
                operation.didAccept(accepted)
            }
        case .failure(let rejection):
            state.withLock { $0.rejection = rejection }
            task.cancel()
        }
    }

    func transfer(_ task: TransferTask, didReceive bytes: UnsafeRawBufferPointer, progress: TransferProgress) {
        let (offset, completeLength, handout) = state.withLock { state in
            state.body.append(contentsOf: bytes)
            return (state.offset, state.completeLength, state.dueHandout(handsOutBody: handsOutBody))
        }
        operation.didReceive(
            offset == 0 ? progress : TransferProgress(received: offset + progress.received, expected: completeLength))
        if let handout { operation.didReceive(ReceivedBody(bytes: handout, attempt: attempt)) }
    }

    func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {
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
