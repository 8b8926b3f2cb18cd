import Foundation
import WebImageConcurrency
import WebImageCore
import WebImageResources

/// 401s: the loop's side of ``ChallengeResponder``, which decides; here the challenge
/// is put to the handler off the loop and its answer comes back as a command.
extension CurlEventLoop {
    func putChallenge(_ state: TransferState, _ response: TransportResponse) {
        switch ChallengeResponder.step(for: state, response, handler: environment.configuration.challengeHandler) {
        case .fail(let error):
            complete(state, .failure(error))
        case .answer(let challenge, let disposition):
            answer(state, challenge, disposition)
        case .ask(let challenge, let handler):
            state.lifecycle.awaitChallenge()
            // On the library's own threads, ahead of their ordinary work. On Swift's shared
            // pool the handler's task waited behind every task queued before it: in a busy
            // test run, a retry after a 401 found its 120 s budget spent before it started.
            Task(executorPreference: WorkerPool.shared, priority: .high) { [self] in
                let disposition = await handler.handle(challenge)
                post(.challengeAnswered(state, challenge, disposition))
            }
        }
    }

    func answer(_ state: TransferState, _ challenge: AuthenticationChallenge, _ disposition: ChallengeDisposition) {
        guard state.lifecycle.challengeAnswered() else { return }
        if !environment.monitors.isEmpty {
            let task = state.task
            environment.monitors.emit { $0.transfer(task, didReceive: challenge, disposition: disposition) }
        }
        switch ChallengeResponder.apply(disposition, to: challenge, of: state) {
        case .retry: startHop(state)
        case .fail(let error): complete(state, .failure(error))
        case .askAgain: putChallenge(state, challenge.failureResponse)
        }
    }
}
