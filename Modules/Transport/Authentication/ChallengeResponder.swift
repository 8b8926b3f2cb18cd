import Foundation
import WebImageCore

/// Turns a 401 into the next step of its transfer, and an answer into the one after:
/// which challenge to put (the strongest scheme not yet refused), who answers it (the
/// request's own credential once, then the challenge handler), and what the answer
/// means. It decides; the event loop asks the handler and starts the retry. Loop thread
/// only.
enum ChallengeResponder {
    /// What to do with a 401.
    enum Step {
        /// End the transfer.
        case fail(TransportError)
        /// Answer at once, without the handler (the request's own credential).
        case answer(AuthenticationChallenge, ChallengeDisposition)
        /// Put the challenge to the handler and wait.
        case ask(AuthenticationChallenge, any AuthenticationChallengeHandling)
    }

    /// What an answer means for the transfer.
    enum Outcome {
        /// Send the request again (with `state.authentication.credential`).
        case retry
        /// End the transfer.
        case fail(TransportError)
        /// Put the next challenge (the handler rejected this protection space).
        case askAgain
    }

    static func step(
        for state: TransferState, _ response: TransportResponse, handler: (any AuthenticationChallengeHandling)?
    ) -> Step {
        let offered = AuthenticationChallengeParser.parse(response.headers.values(for: "WWW-Authenticate"))
            .filter { !state.authentication.rejectedMethods.contains($0.method) }
        // The request's own credential goes to the strongest scheme it can answer (a
        // password to Digest rather than Negotiate); the handler sees the strongest.
        let own = state.authentication.mayOfferRequestCredential ? state.request.credential : nil
        let ownFit = own.flatMap { own in offered.first { own.answers($0.method) } }
        guard let first = ownFit ?? offered.first else {
            return .fail(
                TransportError(
                    .authenticationFailed, "no authentication scheme left to try", url: state.url, response: response, bytesReceived: 0))
        }
        guard state.authentication.challengesAnswered < AuthenticationChallenge.maximumAttempts else {
            return .fail(
                TransportError(
                    .authenticationFailed, "the credential was refused \(state.authentication.challengesAnswered) times", url: state.url,
                    response: response, bytesReceived: 0))
        }
        let space = ProtectionSpace(
            scheme: state.scheme.isEmpty ? "http" : state.scheme, host: state.url.host ?? "",
            port: RedirectPlanner.effectivePort(state.url) ?? 80, realm: first.realm, method: first.method)
        let refused = state.authentication.credential?.space == space ? state.authentication.credential?.credential : nil
        let challenge = AuthenticationChallenge(
            protectionSpace: space, previousFailureCount: refused == nil ? 0 : state.authentication.failedCredentialCount,
            failureResponse: response, proposedCredential: refused)
        if let own, ownFit != nil {
            state.authentication.mayOfferRequestCredential = false
            state.authentication.usesRequestCredential = true
            return .answer(challenge, .useCredential(own))
        }
        guard let handler else {
            return .fail(TransportError(.httpStatus, "the server answered 401", url: state.url, response: response, bytesReceived: 0))
        }
        state.authentication.usesRequestCredential = false
        return .ask(challenge, handler)
    }

    static func apply(_ disposition: ChallengeDisposition, to challenge: AuthenticationChallenge, of state: TransferState) -> Outcome {
        let response = challenge.failureResponse
        switch disposition {
        case .useCredential(let credential):
            guard credential.answers(challenge.protectionSpace.method) else {
                return .fail(
                    TransportError(
                        .authenticationFailed, Self.mismatch(credential, challenge.protectionSpace.method), url: state.url,
                        response: response, bytesReceived: 0))
            }
            if challenge.proposedCredential != nil {
                state.authentication.failedCredentialCount += 1
            } else {
                state.authentication.failedCredentialCount = 1
            }
            state.authentication.challengesAnswered += 1
            state.authentication.credential = (challenge.protectionSpace, credential)
            return .retry
        case .performDefaultHandling:
            return .fail(TransportError(.httpStatus, "the server answered 401", url: state.url, response: response, bytesReceived: 0))
        case .cancel:
            return .fail(
                TransportError(
                    .cancelled, "the challenge handler cancelled", url: state.url, response: response, bytesReceived: 0))
        case .rejectProtectionSpace:
            state.authentication.rejectedMethods.append(challenge.protectionSpace.method)
            return .askAgain
        }
    }

    /// Why `credential` cannot answer `method`, for the error.
    private static func mismatch(_ credential: Credential, _ method: AuthenticationMethod) -> String {
        switch (credential.source, method) {
        case (.password, .negotiate):
            "a password cannot answer Negotiate: answer it with Credential.kerberosTicketCache (after kinit)"
        case (.kerberosTicketCache, _):
            "Kerberos tickets answer Negotiate only, not \(method)"
        default:
            "the transport cannot answer the \(method) scheme"
        }
    }
}
