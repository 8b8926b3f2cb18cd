import Foundation
import Testing
import WebImageCore
import WebImageSecurity
import WebImageTestServer
import WebImageTransport

/// Real TLS handshakes against the loopback server, with certificates made for each test.
@Suite("Server trust, decided during the TLS handshake")
struct ServerTrustTests {
    let ca: TestCertificateAuthority

    init() throws {
        ca = try TestCertificateAuthority()
    }

    private var anchors: [WebImageCore.Certificate] { [WebImageCore.Certificate(derBytes: ca.certificateDER)] }

    private func transport(_ evaluator: any ServerTrustEvaluating, monitor: RecordingMonitor? = nil) -> CurlTransport {
        CurlTransport(
            configuration: .init(
                trustPolicy: ServerTrustManager(evaluators: ["127.0.0.1": evaluator]),
                eventMonitors: monitor.map { [$0] } ?? []))
    }

    @Test("a server of the test CA is trusted with the CA as anchor, over HTTP/2")
    func trustedAnchor() async throws {
        try await withServer(.init(tls: ca.issue())) { server in
            let monitor = RecordingMonitor()
            let fetched = try await transport(AnchoredTrustEvaluator(anchors: anchors), monitor: monitor)
                .data(for: TransportRequest(url: server.url("/bytes/3000")))
            #expect(fetched.data == patternBytes(3000))
            #expect(fetched.response.httpVersion == .http2)
            #expect(fetched.metrics.transactions[0].tlsHandshake > .zero)
            #expect(monitor.events.contains(.trust("127.0.0.1", nil)))
        }
    }

    @Test("libcurl's own validation accepts the CA when it is the configured bundle")
    func defaultValidationWithBundle() async throws {
        try await withServer(.init(tls: ca.issue())) { server in
            let transport = CurlTransport(configuration: .init(certificateAuthorityBundle: try caFile(ca)))
            let fetched = try await transport.data(for: TransportRequest(url: server.url("/bytes/10")))
            #expect(fetched.data.count == 10)
        }
    }

    @Test("a certificate from an unknown CA is rejected by default, with no request sent")
    func unknownCA() async throws {
        try await withServer(.init(tls: ca.issue())) { server in
            let error = await transferError(CurlTransport(), TransportRequest(url: server.url("/bytes/10")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .untrustedChain)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a self-signed certificate is rejected, and accepted only with the explicit opt-in")
    func selfSigned() async throws {
        try await withServer(.init(tls: TestCertificateAuthority.selfSigned())) { server in
            let transport = transport(DefaultTrustEvaluator())
            let error = await transferError(transport, TransportRequest(url: server.url("/bytes/10")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .untrustedChain)
            #expect(server.requests.isEmpty)

            var optIn = TransportRequest(url: server.url("/bytes/10"))
            optIn.allowsInvalidCertificates = true
            let fetched1 = try await transport.data(for: optIn)
            #expect(fetched1.data.count == 10)
            #expect(server.requests.count == 1)
        }
    }

    @Test("a certificate for another host is rejected with hostMismatch, unless host validation is off")
    func hostMismatch() async throws {
        let identity = try ca.issue(commonName: "elsewhere", dnsNames: ["elsewhere.invalid"], ipAddresses: [])
        try await withServer(.init(tls: identity)) { server in
            let error = await transferError(transport(AnchoredTrustEvaluator(anchors: anchors)), TransportRequest(url: server.url("/x")))
            #expect(error?.trustFailure?.code == .hostMismatch)
            #expect(server.requests.isEmpty)
            let lax = transport(AnchoredTrustEvaluator(anchors: anchors, validateHost: false))
            let fetched2 = try await lax.data(for: TransportRequest(url: server.url("/bytes/5")))
            #expect(fetched2.data.count == 5)
        }
    }

    @Test("an expired certificate is rejected with expired")
    func expired() async throws {
        let identity = try ca.issue(notBefore: Date().addingTimeInterval(-86_400 * 10), notAfter: Date().addingTimeInterval(-86_400))
        try await withServer(.init(tls: identity)) { server in
            let error = await transferError(transport(AnchoredTrustEvaluator(anchors: anchors)), TransportRequest(url: server.url("/x")))
            #expect(error?.trustFailure?.code == .expired)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a public-key pin that matches is trusted, even for a self-signed certificate")
    func pinMatches() async throws {
        let identity = try TestCertificateAuthority.selfSigned()
        try await withServer(.init(tls: identity)) { server in
            let pin = try PublicKeyPin("sha256//" + identity.publicKeySHA256Base64)
            let evaluator = PublicKeyPinningTrustEvaluator(pins: [pin], performsDefaultValidation: false)
            let fetched3 = try await transport(evaluator).data(for: TransportRequest(url: server.url("/bytes/7")))
            #expect(fetched3.data.count == 7)
        }
    }

    @Test("a pin that does not match is rejected in the handshake: the server sees no request")
    func pinMismatch() async throws {
        let other = try TestCertificateAuthority.selfSigned()
        try await withServer(.init(tls: ca.issue())) { server in
            let evaluator = PublicKeyPinningTrustEvaluator(
                pins: [try PublicKeyPin(other.publicKeySHA256Base64)], performsDefaultValidation: false)
            let monitor = RecordingMonitor()
            let error = await transferError(transport(evaluator, monitor: monitor), TransportRequest(url: server.url("/bytes/10")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .pinMismatch)
            #expect(server.requests.isEmpty)
            // The server notes the failed handshake when it reads the client's alert, which
            // may come after the client has its error (it did once, under ASan).
            await server.handshakeFailuresArrived(1)
            #expect(server.tlsHandshakeFailures >= 1)
            #expect(monitor.events.contains(.trust("127.0.0.1", .pinMismatch)))
        }
    }

    @Test("certificate pinning: the leaf, or any certificate of the chain")
    func certificatePinning() async throws {
        let intermediate = try ca.issueIntermediate()
        let identity = try intermediate.issue()
        try await withServer(.init(tls: identity)) { server in
            let leaf = WebImageCore.Certificate(derBytes: identity.certificateDER)
            let middle = WebImageCore.Certificate(derBytes: intermediate.certificateDER)
            let pinLeaf = CertificatePinningTrustEvaluator(certificates: [leaf], scope: .leaf, performsDefaultValidation: false)
            let fetched4 = try await transport(pinLeaf).data(for: TransportRequest(url: server.url("/bytes/1")))
            #expect(fetched4.data.count == 1)

            let pinMiddle = CertificatePinningTrustEvaluator(certificates: [middle], scope: .anyInChain, performsDefaultValidation: false)
            let fetched5 = try await transport(pinMiddle).data(for: TransportRequest(url: server.url("/bytes/1")))
            #expect(fetched5.data.count == 1)

            let middleAsLeaf = CertificatePinningTrustEvaluator(certificates: [middle], scope: .leaf, performsDefaultValidation: false)
            let error = await transferError(transport(middleAsLeaf), TransportRequest(url: server.url("/bytes/1")))
            #expect(error?.trustFailure?.code == .pinMismatch)
        }
    }

    @Test("when every host must be evaluated, a host without an evaluator fails before connecting")
    func allHostsMustBeEvaluated() async throws {
        try await withServer(.init(tls: ca.issue())) { server in
            let transport = CurlTransport(
                configuration: .init(
                    trustPolicy: ServerTrustManager(evaluators: ["images.example.com": DefaultTrustEvaluator()])))
            let error = await transferError(transport, TransportRequest(url: server.url("/bytes/1")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .noEvaluator)
            #expect(server.connectionCount == 0)
        }
    }

    @Test("a client certificate is presented when the server requires one")
    func clientCertificate() async throws {
        let clients = try TestCertificateAuthority(commonName: "client CA")
        let client = try clients.issue(commonName: "reader-7", forClient: true)
        try await withServer(.init(tls: ca.issue(), clientCertificateAuthority: clients)) { server in
            let trust = ServerTrustManager(evaluators: ["127.0.0.1": AnchoredTrustEvaluator(anchors: anchors)])
            let without = CurlTransport(configuration: .init(trustPolicy: trust))
            let error = await transferError(without, TransportRequest(url: server.url("/client-cert")))
            #expect(error?.code == .tlsFailure || error?.code == .connectionReset)
            #expect(server.requests.isEmpty)

            let identity = ClientIdentity(certificateChainPEM: client.certificatePEM, privateKeyPEM: client.privateKeyPEM)
            let with = CurlTransport(
                configuration: .init(
                    trustPolicy: trust, challengeHandler: CredentialChallengeHandler(defaultClientIdentity: identity)))
            let fetched = try await with.data(for: TransportRequest(url: server.url("/client-cert")))
            #expect(String(decoding: fetched.data, as: UTF8.self).contains("reader-7"))
        }
    }
}

@Suite("HTTP/2 over TLS")
struct HTTP2Tests {
    @Test(
        "concurrent requests to one host all complete over HTTP/2: on one multiplexed connection from libcurl 8.1, one connection each (up to the host's limit) before"
    )
    func multiplexing() async throws {
        let ca = try TestCertificateAuthority()
        try await withServer(.init(tls: ca.issue())) { server in
            let transport = CurlTransport(configuration: .init(certificateAuthorityBundle: try caFile(ca)))
            let versions = try await withThrowingTaskGroup(of: NegotiatedHTTPVersion?.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        try await transport.data(for: TransportRequest(url: server.url("/bytes/\(1000 + index)"))).response.httpVersion
                    }
                }
                var seen: [NegotiatedHTTPVersion?] = []
                for try await version in group { seen.append(version) }
                return seen
            }
            #expect(versions.count == 40 && versions.allSatisfy { $0 == .http2 })
            #expect(server.requests.allSatisfy { $0.httpVersion == "HTTP/2" })
            let connections = Set(server.requests.map(\.connectionID)).count
            if TransportConfiguration.defaultMultiplexesHTTP2 {
                #expect(connections == 1)
            } else {
                #expect(connections > 1 && connections <= TransportConfiguration().maximumConnectionsPerHost)
            }
        }
    }

    @Test("preferring HTTP/1.1 keeps HTTP/1.1 over TLS")
    func http1Preferred() async throws {
        let ca = try TestCertificateAuthority()
        try await withServer(.init(tls: ca.issue())) { server in
            let transport = CurlTransport(configuration: .init(certificateAuthorityBundle: try caFile(ca)))
            var request = TransportRequest(url: server.url("/bytes/10"))
            request.preferredHTTPVersion = .http1_1
            let fetched = try await transport.data(for: request)
            #expect(fetched.response.httpVersion == .http1_1)
            #expect(server.requests.first?.httpVersion == "HTTP/1.1")
        }
    }
}
