import Foundation
import Testing
import WebImageSecurity
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageCore

/// NTLM through libcurl's own implementation, against the loopback server's route that
/// runs the real three-message handshake and checks the NTLMv2 response for a known
/// password (Tools/TestSupport/TestServer/NTLM).
@Suite("NTLM authentication")
struct NTLMAuthenticationTests {
    static let ann = Credential(user: #"WIDOMAIN\ann"#, password: "s3cret")
    static let imageBytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// A server whose document root holds `photo.png`.
    private func withImageServer(_ tls: TestIdentity? = nil, _ body: (LoopbackServer) async throws -> Void) async throws {
        let root = try TemporaryDirectory()
        try Self.imageBytes.write(to: root.url.appendingPathComponent("photo.png"))
        try await withServer(.init(tls: tls, documentRoot: root.url)) { server in try await body(server) }
    }

    private static let path = "/ntlm-auth/WIDOMAIN%5Cann/s3cret?file=photo.png"

    @Test("the right password: 200 with the image, NEGOTIATE and AUTHENTICATE on one HTTP/1.1 connection")
    func rightPassword() async throws {
        try await withImageServer { server in
            let monitor = RecordingMonitor()
            let transport = CurlTransport(
                configuration: .init(challengeHandler: CredentialChallengeHandler(credential: Self.ann), eventMonitors: [monitor]))
            let fetched = try await transport.data(for: patientRequest(server.url(Self.path)))
            #expect(fetched.response.statusCode == 200)
            #expect(fetched.data == Self.imageBytes)
            #expect(monitor.events.contains(.challenge(.ntlm, .useCredential(Self.ann))))

            let requests = server.requests
            #expect(
                requests.map { ntlmMessageType($0.header("Authorization")) } == [nil, 1, 3], "the 401 that names NTLM, then the handshake")
            let handshake = requests.dropFirst()
            #expect(Set(handshake.map(\.connectionID)).count == 1, "the handshake stayed on one connection")
            #expect(handshake.allSatisfy { $0.httpVersion == "HTTP/1.1" })
        }
    }

    @Test("a wrong password: one handshake, 401 again, and the transfer fails with the 401")
    func wrongPassword() async throws {
        try await withImageServer { server in
            let handler = CredentialChallengeHandler(credential: Credential(user: #"WIDOMAIN\ann"#, password: "wrong"))
            let error = await transferError(
                CurlTransport(configuration: .init(challengeHandler: handler)), patientRequest(server.url(Self.path)))
            #expect(error?.code == .httpStatus)
            #expect(error?.statusCode == 401)
            #expect(error?.response?.headers["WWW-Authenticate"] == "NTLM")
            #expect(server.requests.filter { ntlmMessageType($0.header("Authorization")) == 3 }.count == 1, "the password is tried once")
        }
    }

    @Test("a request's own password answers NTLM without a handler")
    func requestCredential() async throws {
        try await withImageServer { server in
            var request = patientRequest(server.url(Self.path))
            request.credential = Self.ann
            let fetched = try await CurlTransport().data(for: request)
            #expect(fetched.data == Self.imageBytes)
        }
    }

    @Test("the next image from the origin rides the authenticated connection: no new handshake")
    func connectionStaysAuthenticated() async throws {
        try await withImageServer { server in
            let transport = CurlTransport(configuration: .init(challengeHandler: CredentialChallengeHandler(credential: Self.ann)))
            _ = try await transport.data(for: patientRequest(server.url(Self.path)))
            server.resetRecords()
            let again = try await transport.data(for: patientRequest(server.url(Self.path)))
            #expect(again.data == Self.imageBytes)
            #expect(server.requests.count == 1, "\(server.requests.map { $0.header("Authorization") ?? "-" })")
        }
    }

    @Test("over TLS with HTTP/2 offered, NTLM is never sent over HTTP/2")
    func neverOverHTTP2() async throws {
        let ca = try TestCertificateAuthority()
        try await withImageServer(ca.issue()) { server in
            let trust = ServerTrustManager(evaluators: [
                "127.0.0.1": AnchoredTrustEvaluator(anchors: [Certificate(derBytes: ca.certificateDER)])
            ])
            let transport = CurlTransport(
                configuration: .init(trustPolicy: trust, challengeHandler: CredentialChallengeHandler(credential: Self.ann)))
            let fetched = try await transport.data(for: patientRequest(server.url(Self.path)))
            #expect(fetched.data == Self.imageBytes)
            #expect(fetched.response.httpVersion == .http1_1)
            let ntlm = server.requests.filter { ntlmMessageType($0.header("Authorization")) != nil }
            #expect(ntlm.count == 2)
            #expect(ntlm.allSatisfy { $0.httpVersion == "HTTP/1.1" }, "\(ntlm.map(\.httpVersion))")
        }
    }

    @Test("a password offered to Negotiate fails clearly instead of using the process's Kerberos tickets")
    func passwordCannotAnswerNegotiate() async throws {
        try await withServer { server in
            // The hook answers whatever is asked with a password.
            let handler = CredentialChallengeHandler(onChallenge: { _ in .useCredential(Self.ann) })
            let target = server.url("/status/401?header=WWW-Authenticate:%20Negotiate")
            let error = await transferError(CurlTransport(configuration: .init(challengeHandler: handler)), patientRequest(target))
            #expect(error?.code == .authenticationFailed)
            #expect(error?.message.contains("kerberosTicketCache") == true, "\(String(describing: error))")
        }
    }
}

/// The NTLM message type of an `Authorization: NTLM <base64>` value, nil when there is none.
func ntlmMessageType(_ authorization: String?) -> Int? {
    guard let authorization, authorization.hasPrefix("NTLM "),
        let bytes = Data(base64Encoded: String(authorization.dropFirst(5))), bytes.count >= 12
    else { return nil }
    return Int(bytes[bytes.startIndex + 8])
}

private func patientRequest(_ url: URL) -> TransportRequest {
    TransportRequest(url: url, timeouts: .init(connect: .seconds(60), total: .seconds(120), stall: .seconds(60)))
}
