import CLibCurl
import Foundation
import WebImageConcurrency
import WebImageCore

extension CurlEventLoop {
    /// Ends a transfer, once: its slot and handle given back, metrics gathered, then the
    /// monitors and the delegate told. Monitors first: one delivered `.immediate` has
    /// heard the end before the caller waiting on the delegate resumes.
    func complete(_ state: TransferState, _ result: Result<TransportResponse, TransportError>) {
        loopThread.assertOnLoop()
        guard let finish = slots.finish(state) else { return }
        transfers[state.task.id] = nil
        if finish == .removeHop, let easy = state.easy { curl_multi_remove_handle(multi, easy) }
        returnHandle(of: state)
        let completion = TransferCompletion(
            result: result,
            metrics: TransferMetrics(
                transactions: state.transactions, totalDuration: ContinuousClock.now - state.startedAt,
                redirectCount: state.redirectCount))
        if !environment.monitors.isEmpty {
            let task = state.task
            environment.monitors.emit { $0.transfer(task, didCollect: completion.metrics) }
            environment.monitors.emit { $0.transfer(task, didComplete: completion) }
        }
        state.delegate.transfer(state.task, didComplete: completion)
    }

    /// Ends a transfer whose last hop's head is to be delivered: with the head the
    /// delegate was given (a continued transfer's first), once its body is whole.
    func completeDelivered(_ state: TransferState, _ response: TransportResponse) {
        if let failure = state.continuationFailure(for: response) {
            complete(state, .failure(failure))
            return
        }
        if state.delivered == nil { state.deliver(response) }
        complete(state, .success(state.delivered ?? response))
    }
}
