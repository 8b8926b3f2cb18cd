import Foundation
import Testing
import WebImageCore
import WebImageSecurity
import WebImageTestServer
import WebImageTransport

/// `SecurityPolicy` (AFSecurityPolicy's presets) deciding real TLS handshakes with the
/// loopback server, on certificates made for each test.
@Suite("SecurityPolicy and its pinning modes against a real TLS server", .timeLimit(.minutes(2)))
struct SecurityPolicyTLSTests {
    let ca: TestCertificateAuthority

    init() throws {
        ca = try TestCertificateAuthority()
    }

    /// A transport that holds 127.0.0.1 to `policy`; `bundle` stands for the system's
    /// authorities.
    private func transport(_ policy: SecurityPolicy, bundle: String? = nil) -> CurlTransport {
        CurlTransport(configuration: .init(trustPolicy: policy.trustManager(forHosts: ["127.0.0.1"]), certificateAuthorityBundle: bundle))
    }

    private func certificate(_ der: [UInt8]) -> WebImageCore.Certificate { WebImageCore.Certificate(derBytes: der) }

    @Test("the default policy trusts a chain to the system's authorities and checks the host; an unknown authority is refused")
    func defaultPolicy() async throws {
        let bundle = try caFile(ca)
        try await withServer(.init(tls: ca.issue())) { server in
            let fetched = try await transport(.default, bundle: bundle).data(for: TransportRequest(url: server.url("/bytes/10")))
            #expect(fetched.data.count == 10)
            let unknown = await transferError(transport(.default), TransportRequest(url: server.url("/bytes/10")))
            #expect(unknown?.trustFailure?.code == .untrustedChain)
            #expect(server.requests.count == 1)
        }
        let elsewhere = try ca.issue(commonName: "elsewhere", dnsNames: ["elsewhere.invalid"], ipAddresses: [])
        try await withServer(.init(tls: elsewhere)) { server in
            let error = await transferError(transport(.default, bundle: bundle), TransportRequest(url: server.url("/bytes/10")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .hostMismatch)
            #expect(server.requests.isEmpty)
            let lax = transport(SecurityPolicy(validatesDomainName: false), bundle: bundle)
            let fetched = try await lax.data(for: TransportRequest(url: server.url("/bytes/5")))
            #expect(fetched.data.count == 5)
        }
    }

    @Test("certificate pinning: a valid chain holding the pinned intermediate is trusted; a chain without the pin is refused unsent")
    func certificatePinning() async throws {
        let bundle = try caFile(ca)
        let intermediate = try ca.issueIntermediate()
        let stranger = try TestCertificateAuthority.selfSigned()
        try await withServer(.init(tls: intermediate.issue())) { server in
            let pinned = SecurityPolicy.pinningCertificates([certificate(intermediate.certificateDER)])
            let fetched = try await transport(pinned, bundle: bundle).data(for: TransportRequest(url: server.url("/bytes/3")))
            #expect(fetched.data.count == 3)

            let other = SecurityPolicy.pinningCertificates([certificate(stranger.certificateDER)])
            let error = await transferError(transport(other, bundle: bundle), TransportRequest(url: server.url("/bytes/3")))
            #expect(error?.code == .serverTrustFailed)
            #expect(error?.trustFailure?.code == .pinMismatch)
            #expect(server.requests.count == 1)
        }
    }

    @Test("public-key pinning: a valid chain with the pinned key is trusted; another key is refused unsent")
    func publicKeyPinning() async throws {
        let bundle = try caFile(ca)
        let identity = try ca.issue()
        let stranger = try TestCertificateAuthority.selfSigned()
        try await withServer(.init(tls: identity)) { server in
            let pinned = SecurityPolicy.pinningPublicKeys(of: [certificate(identity.certificateDER)])
            let fetched = try await transport(pinned, bundle: bundle).data(for: TransportRequest(url: server.url("/bytes/4")))
            #expect(fetched.data.count == 4)

            let other = SecurityPolicy.pinningPublicKeys(of: [certificate(stranger.certificateDER)])
            let error = await transferError(transport(other, bundle: bundle), TransportRequest(url: server.url("/bytes/4")))
            #expect(error?.trustFailure?.code == .pinMismatch)
            #expect(server.requests.count == 1)
        }
    }

    @Test(
        "allowing invalid certificates skips the chain, not the pin: a pinned self-signed server is trusted, another refused",
        arguments: [SecurityPolicy.PinningMode.certificate, .publicKey])
    func allowsInvalidWithPin(_ mode: SecurityPolicy.PinningMode) async throws {
        let identity = try TestCertificateAuthority.selfSigned()
        let stranger = try TestCertificateAuthority.selfSigned()
        try await withServer(.init(tls: identity)) { server in
            let pinned = SecurityPolicy(
                pinning: mode, pinnedCertificates: [certificate(identity.certificateDER)], allowsInvalidCertificates: true)
            let fetched = try await transport(pinned).data(for: TransportRequest(url: server.url("/bytes/2")))
            #expect(fetched.data.count == 2)

            let other = SecurityPolicy(
                pinning: mode, pinnedCertificates: [certificate(stranger.certificateDER)], allowsInvalidCertificates: true)
            let error = await transferError(transport(other), TransportRequest(url: server.url("/bytes/2")))
            #expect(error?.trustFailure?.code == .pinMismatch)
            #expect(server.requests.count == 1)
        }
    }

    @Test(
        "policies that can trust nothing refuse a valid server unsent: invalid allowed with the domain checked, or pins with no certificate"
    )
    func refusesEverything() async throws {
        let bundle = try caFile(ca)
        try await withServer(.init(tls: ca.issue())) { server in
            let unpinned = await transferError(
                transport(SecurityPolicy(allowsInvalidCertificates: true), bundle: bundle), TransportRequest(url: server.url("/bytes/1")))
            #expect(unpinned?.trustFailure?.code == .validationFailed)
            let empty = await transferError(
                transport(SecurityPolicy(pinning: .publicKey), bundle: bundle), TransportRequest(url: server.url("/bytes/1")))
            #expect(empty?.trustFailure?.code == .pinMismatch)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a policy's trust manager refuses a host it does not name, before connecting")
    func trustManagerHosts() async throws {
        let bundle = try caFile(ca)
        try await withServer(.init(tls: ca.issue())) { server in
            let manager = SecurityPolicy.default.trustManager(forHosts: ["images.example.com"])
            let transport = CurlTransport(configuration: .init(trustPolicy: manager, certificateAuthorityBundle: bundle))
            let error = await transferError(transport, TransportRequest(url: server.url("/bytes/1")))
            #expect(error?.trustFailure?.code == .noEvaluator)
            #expect(server.connectionCount == 0)
        }
    }
}
