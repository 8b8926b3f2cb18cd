import Foundation
import Synchronization
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore

/// A transport whose transfers the test completes by hand: for the downloader's logic
/// alone. The integration tests use the real transport.
final class ScriptedTransport: Transporting {
    struct Transfer: Sendable {
        let request: TransportRequest
        let task: TransferTask
        let delegate: any TransferDelegate
    }

    /// A transfer as the transport keeps it: its delegate until its completion was
    /// delivered, then no more (`Transporting`'s contract).
    private struct Record {
        let request: TransportRequest
        let task: TransferTask
        var delegate: (any TransferDelegate)?
    }

    /// Where a completed transfer's later events go: nowhere.
    private struct Completed: TransferDelegate {
        func transfer(_ task: TransferTask, didComplete completion: TransferCompletion) {}
    }

    private let state = Locked<(records: [Record], cancelled: Int)>(([], 0))
    private let started = AsyncStream<Void>.makeStream()
    /// Answers each transfer as it starts, when set (on the starting thread).
    let autoAnswer: (@Sendable (TransportRequest) -> (Int, Data))?

    init(autoAnswer: (@Sendable (TransportRequest) -> (Int, Data))? = nil) {
        self.autoAnswer = autoAnswer
    }

    var transfers: [Transfer] {
        state.withLock { state in
            state.records.map { Transfer(request: $0.request, task: $0.task, delegate: $0.delegate ?? Completed()) }
        }
    }
    var cancelledCount: Int { state.withLock { $0.cancelled } }

    func start(_ request: TransportRequest, delegate: any TransferDelegate) -> TransferTask {
        let task = TransferTask { [weak self] task in self?.cancelled(task) }
        state.withLock { $0.records.append(Record(request: request, task: task, delegate: delegate)) }
        started.continuation.yield()
        if let autoAnswer {
            let (status, body) = autoAnswer(request)
            respond(task, status: status, body: body)
        }
        return task
    }

    /// Waits until `count` transfers have started.
    func waitForTransfers(_ count: Int) async {
        await started.stream.wait { transfers.count >= count }
    }

    /// Answers `task` with a status and body, then completes it.
    func respond(_ task: TransferTask, status: Int = 200, headers: HTTPHeaderFields = [:], body: Data) {
        guard let transfer = transfers.first(where: { $0.task == task }) else { return }
        let response = TransportResponse(url: transfer.request.url, statusCode: status, headers: headers, httpVersion: .http1_1)
        if status >= 400 {
            complete(transfer, .failure(TransportError(.httpStatus, "status \(status)", url: transfer.request.url, response: response)))
            return
        }
        transfer.delegate.transfer(task, didReceive: response)
        guard !task.isCancelled else { return }
        body.withUnsafeBytes { bytes in
            transfer.delegate.transfer(
                task, didReceive: bytes, progress: TransferProgress(received: Int64(body.count), expected: Int64(body.count)))
        }
        complete(transfer, .success(response))
    }

    /// Fails `task` with `code`.
    func fail(_ task: TransferTask, _ code: TransportError.Code) {
        guard let transfer = transfers.first(where: { $0.task == task }) else { return }
        complete(transfer, .failure(TransportError(code, "scripted", url: transfer.request.url)))
    }

    private func cancelled(_ task: TransferTask) {
        state.withLock { $0.cancelled += 1 }
        guard let transfer = transfers.first(where: { $0.task == task }) else { return }
        complete(transfer, .failure(TransportError(.cancelled, "cancelled", url: transfer.request.url)))
    }

    private func complete(_ transfer: Transfer, _ result: Result<TransportResponse, TransportError>) {
        transfer.delegate.transfer(
            transfer.task,
            didComplete: TransferCompletion(
                result: result, metrics: TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)))
        state.withLock { state in
            if let index = state.records.firstIndex(where: { $0.task == transfer.task }) { state.records[index].delegate = nil }
        }
    }
}
