import Foundation
import Testing
import WebImageCore

@testable import WebImageTransport

/// The 401 decisions and the per-origin credential cache, driven with plain values:
/// no server, no event loop.
@Suite("Authentication: what a 401 and its answer mean for the transfer")
struct ChallengeResponderTests {
    struct Handler: AuthenticationChallengeHandling {
        func handle(_ challenge: AuthenticationChallenge) async -> ChallengeDisposition { .performDefaultHandling }
        func clientIdentity(forHost host: String, port: Int) -> ClientIdentity? { nil }
    }

    let url = URL(string: "http://example.com/cat.png")!
    let origin = "http://example.com:80"
    let alice = Credential(user: "alice", password: "secret")

    private func transfer(_ configure: (inout TransportRequest) -> Void = { _ in }) -> TransferState {
        var request = TransportRequest(url: url)
        configure(&request)
        return TransferState(
            task: TransferTask { _ in }, request: request, delegate: StreamingRecorder(),
            environment: TransportEnvironment(TransportConfiguration()))
    }

    private func unauthorized(_ challenges: String...) -> TransportResponse {
        var headers = HTTPHeaderFields()
        for challenge in challenges { headers.add("WWW-Authenticate", challenge) }
        return TransportResponse(url: url, statusCode: 401, headers: headers, httpVersion: .http1_1)
    }

    @Test("the request's own credential answers the first challenge, once, without the handler")
    func requestCredentialFirst() throws {
        let state = transfer { $0.credential = alice }
        guard
            case .answer(let challenge, .useCredential(alice)) = ChallengeResponder.step(
                for: state, unauthorized("Basic realm=\"r\""), handler: Handler())
        else {
            Issue.record("expected the request's credential")
            return
        }
        #expect(challenge.protectionSpace.method == .basic)
        #expect(state.authentication.usesRequestCredential)
        guard case .ask = ChallengeResponder.step(for: state, unauthorized("Basic realm=\"r\""), handler: Handler()) else {
            Issue.record("expected the handler the second time")
            return
        }
    }

    @Test("the request's password skips Negotiate for the strongest scheme it can answer")
    func requestCredentialFitsItsScheme() {
        let state = transfer { $0.credential = alice }
        guard
            case .answer(let challenge, .useCredential(alice)) = ChallengeResponder.step(
                for: state, unauthorized("Negotiate", "NTLM", "Basic realm=\"r\""), handler: nil)
        else {
            Issue.record("expected the request's credential")
            return
        }
        #expect(challenge.protectionSpace.method == .ntlm)
    }

    @Test("a credential that cannot answer the scheme fails the transfer as authenticationFailed")
    func mismatchedCredential() {
        let cases: [(String, Credential, String)] = [
            ("Negotiate", alice, "kerberosTicketCache"),
            ("Basic realm=\"r\"", .kerberosTicketCache, "Negotiate only"),
            ("Bearer", alice, "cannot answer the Bearer scheme"),
        ]
        for (offered, credential, reason) in cases {
            let state = transfer()
            guard case .ask(let challenge, _) = ChallengeResponder.step(for: state, unauthorized(offered), handler: Handler()) else {
                Issue.record("expected a question for \(offered)")
                continue
            }
            guard case .fail(let error) = ChallengeResponder.apply(.useCredential(credential), to: challenge, of: state) else {
                Issue.record("\(offered) answered with \(credential.source) must fail")
                continue
            }
            #expect(error.code == .authenticationFailed)
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(state.authentication.credential == nil, "nothing is sent")
        }
    }

    @Test("without a handler or a credential, a 401 is an httpStatus error that keeps the response")
    func noHandler() {
        guard case .fail(let error) = ChallengeResponder.step(for: transfer(), unauthorized("Basic realm=\"r\""), handler: nil) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .httpStatus)
        #expect(error.statusCode == 401)
    }

    @Test("the strongest scheme is put first; a rejected one is not put again")
    func rejectedScheme() {
        let state = transfer()
        let response = unauthorized("Basic realm=\"b\"", "Digest realm=\"d\", nonce=\"n\"")
        guard case .ask(let first, _) = ChallengeResponder.step(for: state, response, handler: Handler()) else {
            Issue.record("expected a question")
            return
        }
        #expect(first.protectionSpace.method == .digest)
        guard case .askAgain = ChallengeResponder.apply(.rejectProtectionSpace, to: first, of: state) else {
            Issue.record("expected the next challenge")
            return
        }
        guard case .ask(let second, _) = ChallengeResponder.step(for: state, response, handler: Handler()) else {
            Issue.record("expected a question")
            return
        }
        #expect(second.protectionSpace.method == .basic)
        _ = ChallengeResponder.apply(.rejectProtectionSpace, to: second, of: state)
        guard case .fail(let error) = ChallengeResponder.step(for: state, response, handler: Handler()) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .authenticationFailed)
    }

    @Test("a credential refused the maximum number of times ends the transfer")
    func maximumAttempts() {
        let state = transfer()
        let response = unauthorized("Basic realm=\"r\"")
        for attempt in 0..<AuthenticationChallenge.maximumAttempts {
            guard case .ask(let challenge, _) = ChallengeResponder.step(for: state, response, handler: Handler()) else {
                Issue.record("expected a question on attempt \(attempt)")
                return
            }
            #expect(challenge.previousFailureCount == attempt)
            guard case .retry = ChallengeResponder.apply(.useCredential(alice), to: challenge, of: state) else {
                Issue.record("expected a retry")
                return
            }
        }
        guard case .fail(let error) = ChallengeResponder.step(for: state, response, handler: Handler()) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .authenticationFailed)
    }

    @Test("cancel and default handling end the transfer with the 401 kept")
    func endingAnswers() {
        let state = transfer()
        guard case .ask(let challenge, _) = ChallengeResponder.step(for: state, unauthorized("Basic realm=\"r\""), handler: Handler())
        else {
            Issue.record("expected a question")
            return
        }
        guard case .fail(let cancelled) = ChallengeResponder.apply(.cancel, to: challenge, of: state),
            case .fail(let declined) = ChallengeResponder.apply(.performDefaultHandling, to: challenge, of: state)
        else {
            Issue.record("expected failures")
            return
        }
        #expect(cancelled.code == .cancelled)
        #expect(declined.code == .httpStatus)
        #expect(cancelled.statusCode == 401 && declined.statusCode == 401)
    }

    // MARK: The per-origin cache

    @Test("a credential that worked is sent up front to the origin, until the origin answers 401")
    func cacheRemembersAndForgets() {
        var cache = OriginCredentialCache()
        let used = transfer()
        let space = ProtectionSpace(scheme: "http", host: "example.com", port: 80, realm: "r", method: .basic)
        used.authentication.credential = (space, alice)
        cache.remember(used, origin: origin)
        #expect(cache.credential(for: transfer(), origin: origin)?.1 == alice)
        #expect(cache.credential(for: transfer(), origin: "http://other.example:80") == nil)
        cache.forget(origin: origin)
        #expect(cache.credential(for: transfer(), origin: origin) == nil)
    }

    @Test("the request's own credential is never remembered, and a request with its own is sent nothing else")
    func cacheKeepsRequestCredentialsOut() {
        var cache = OriginCredentialCache()
        let own = transfer { $0.credential = alice }
        let space = ProtectionSpace(scheme: "http", host: "example.com", port: 80, realm: "r", method: .basic)
        own.authentication.credential = (space, alice)
        own.authentication.usesRequestCredential = true
        cache.remember(own, origin: origin)
        #expect(cache.credential(for: transfer(), origin: origin) == nil)

        let other = transfer()
        other.authentication.credential = (space, Credential(user: "bob", password: "pw"))
        cache.remember(other, origin: origin)
        #expect(cache.credential(for: transfer { $0.credential = alice }, origin: origin) == nil)
        #expect(cache.credential(for: transfer { $0.headers.add("Authorization", "Bearer x") }, origin: origin) == nil)
    }
}
