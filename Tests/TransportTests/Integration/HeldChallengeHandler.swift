import WebImageCore
import WebImageTransport

/// Answers a 401 only when the test says, and says when it was asked.
final class HeldChallengeHandler: AuthenticationChallengeHandling {
    private let asking = AsyncStream<Void>.makeStream()
    private let answers = AsyncStream<ChallengeDisposition>.makeStream()
    private let answered = AsyncStream<Void>.makeStream()

    func handle(_ challenge: AuthenticationChallenge) async -> ChallengeDisposition {
        asking.continuation.yield()
        var disposition = ChallengeDisposition.cancel
        for await given in answers.stream {
            disposition = given
            break
        }
        answered.continuation.yield()
        return disposition
    }

    /// Waits until the handler is asked.
    func asked() async {
        for await _ in asking.stream { break }
    }

    /// Gives the handler its answer, and waits until it has returned it.
    func answer(_ disposition: ChallengeDisposition) async {
        answers.continuation.yield(disposition)
        for await _ in answered.stream { break }
    }
}
