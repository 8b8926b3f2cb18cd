import Foundation
import Synchronization
import Testing
import WebImageSecurity
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Authentication challenges")
struct AuthenticationTests {
    @Test("without a challenge handler a 401 is an httpStatus error")
    func noHandler() async throws {
        try await withServer { server in
            let error = await transferError(CurlTransport(), patientRequest(server.url("/basic-auth/ann/secret")))
            #expect(error?.code == .httpStatus)
            #expect(error?.statusCode == 401)
            #expect(error?.response?.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        }
    }

    @Test("Basic and Digest succeed with the right credential")
    func rightCredential() async throws {
        try await withServer { server in
            let handler = CredentialChallengeHandler(credential: Credential(user: "ann", password: "secret"))
            let monitor = RecordingMonitor()
            let transport = CurlTransport(configuration: .init(challengeHandler: handler, eventMonitors: [monitor]))
            for path in ["/basic-auth/ann/secret", "/digest-auth/ann/secret"] {
                let fetched = try await transport.data(for: patientRequest(server.url(path)))
                #expect(String(decoding: fetched.data, as: UTF8.self) == "authenticated ann", "\(path)")
            }
            #expect(monitor.events.contains(.challenge(.basic, .useCredential(Credential(user: "ann", password: "secret")))))
            #expect(monitor.events.contains(.challenge(.digest, .useCredential(Credential(user: "ann", password: "secret")))))
        }
    }

    @Test("a request's own credential answers the challenge without a handler, and is never remembered")
    func requestCredential() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            for path in ["/basic-auth/ann/secret", "/digest-auth/ann/secret"] {
                var request = patientRequest(server.url(path))
                request.credential = Credential(user: "ann", password: "secret")
                let fetched = try await transport.data(for: request)
                #expect(String(decoding: fetched.data, as: UTF8.self) == "authenticated ann", "\(path)")
            }
            // Another request to the same origin, without it, gets the 401.
            let error = await transferError(transport, patientRequest(server.url("/basic-auth/ann/secret")))
            #expect(error?.statusCode == 401)
            var wrong = patientRequest(server.url("/basic-auth/ann/secret"))
            wrong.credential = Credential(user: "ann", password: "wrong")
            let refused = await transferError(transport, wrong)
            #expect(refused?.statusCode == 401, "offered once, then the 401 is the answer")
        }
    }

    @Test("a request's own credential is never offered to another origin after a redirect")
    func requestCredentialStaysHome() async throws {
        try await withServer { other in
            try await withServer { server in
                let target = other.url("/basic-auth/ann/secret").absoluteString
                var request = patientRequest(server.url("/redirect-to?url=\(target)"))
                request.credential = Credential(user: "ann", password: "secret")
                let error = await transferError(CurlTransport(), request)
                #expect(error?.statusCode == 401)
                #expect(other.requests.allSatisfy { $0.header("Authorization") == nil })
            }
        }
    }

    @Test("a wrong credential is offered once, then the 401 ends the transfer")
    func wrongCredential() async throws {
        try await withServer { server in
            let handler = CredentialChallengeHandler(credential: Credential(user: "ann", password: "wrong"))
            let transport = CurlTransport(configuration: .init(challengeHandler: handler))
            for path in ["/basic-auth/ann/secret", "/digest-auth/ann/secret"] {
                server.resetRecords()
                let error = await transferError(transport, patientRequest(server.url(path)))
                #expect(error?.code == .httpStatus, "\(path)")
                #expect(error?.statusCode == 401)
                #expect(server.requests.count <= 4, "\(path): \(server.requests.count) requests")
            }
        }
    }

    @Test("a handler that insists is stopped after the maximum attempts")
    func insistentHandler() async throws {
        try await withServer { server in
            let handler = CredentialChallengeHandler(onChallenge: { _ in .useCredential(Credential(user: "ann", password: "nope")) })
            let error = await transferError(
                CurlTransport(configuration: .init(challengeHandler: handler)), patientRequest(server.url("/basic-auth/ann/secret")))
            #expect(error?.code == .authenticationFailed)
            #expect(server.requests.count == AuthenticationChallenge.maximumAttempts + 1)
        }
    }

    @Test("the handler sees the failure count rise, and its cancel ends the transfer as cancelled")
    func failureCountAndCancel() async throws {
        try await withServer { server in
            let counts = Locked<[Int]>([])
            let handler = CredentialChallengeHandler(onChallenge: { challenge in
                counts.withLock { $0.append(challenge.previousFailureCount) }
                return challenge.previousFailureCount < 1 ? .useCredential(Credential(user: "ann", password: "bad")) : .cancel
            })
            let error = await transferError(
                CurlTransport(configuration: .init(challengeHandler: handler)), patientRequest(server.url("/basic-auth/ann/secret")))
            #expect(error?.code == .cancelled)
            #expect(counts.withLock { $0 } == [0, 1])
        }
    }

    @Test("after a success, the next request to the origin sends the credential up front")
    func preemptive() async throws {
        try await withServer { server in
            let handler = CredentialChallengeHandler(credential: Credential(user: "ann", password: "secret"))
            let transport = CurlTransport(configuration: .init(challengeHandler: handler))
            _ = try await transport.data(for: patientRequest(server.url("/basic-auth/ann/secret")))
            let before = server.requests.count
            _ = try await transport.data(for: patientRequest(server.url("/basic-auth/ann/secret")))
            #expect(server.requests.count == before + 1)
            #expect(server.requests.last?.header("Authorization")?.hasPrefix("Basic ") == true)
        }
    }
}

/// The whole-transfer budget runs while the challenge handler decides. The handler runs
/// on the library's worker pool, which the suite's tests do not queue on (on Swift's
/// cooperative pool it once waited behind the suite for the whole 120 s); a patient
/// budget still keeps these tests about authentication, not scheduling.
private func patientRequest(_ url: URL) -> TransportRequest {
    TransportRequest(url: url, timeouts: .init(connect: .seconds(60), total: .seconds(120), stall: .seconds(60)))
}
