import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// Bad certificates through the whole pipeline: the load fails with the trust error
/// that names the problem, during the handshake, so the server never sees a request.
@Suite("Faults: certificates that must not be trusted")
struct TrustFaultTests {
    let ca: TestCertificateAuthority

    init() throws {
        ca = try TestCertificateAuthority()
    }

    /// A pipeline that trusts the test CA for 127.0.0.1 (host name checked).
    private func pipeline(_ served: ServedImages, evaluator: (any ServerTrustEvaluating)? = nil) -> InspectablePipeline {
        let anchors = [Certificate(derBytes: ca.certificateDER)]
        return InspectablePipeline(cacheDirectory: served.cacheDirectory) {
            $0.transport.trustPolicy = ServerTrustManager(evaluators: ["127.0.0.1": evaluator ?? AnchoredTrustEvaluator(anchors: anchors)])
        }
    }

    private func expectRefused(
        _ identity: TestIdentity, as code: ServerTrustError.Code, evaluator: (any ServerTrustEvaluating)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withServedImages(.init(tls: identity)) { served in
            let pipeline = pipeline(served, evaluator: evaluator)
            let request = ImageRequest(url: served.url("photo.jpg"))
            let error = await pipeline.failure(request, sourceLocation: sourceLocation)
            #expect(error?.transport?.code == .serverTrustFailed, sourceLocation: sourceLocation)
            #expect(error?.transport?.trustFailure?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
            #expect(served.server.requests.isEmpty, "no request byte before the decision", sourceLocation: sourceLocation)
            try await pipeline.expectNothingLeft(after: request, sourceLocation: sourceLocation)
        }
    }

    @Test("the test CA's certificate loads (the control for the cases below)")
    func trusted() async throws {
        try await withServedImages(.init(tls: ca.issue())) { served in
            let image = try await pipeline(served).manager.image(for: served.url("photo.jpg"))
            #expect(image.width == 160)
        }
    }

    @Test("a certificate from an authority nobody trusts is untrustedChain")
    func untrusted() async throws {
        try await expectRefused(try TestCertificateAuthority(commonName: "stranger").issue(), as: .untrustedChain)
    }

    @Test("an expired certificate is expired")
    func expired() async throws {
        let identity = try ca.issue(notBefore: Date(timeIntervalSinceNow: -86_400 * 30), notAfter: Date(timeIntervalSinceNow: -86_400))
        try await expectRefused(identity, as: .expired)
    }

    @Test("a certificate for another host is hostMismatch")
    func mismatched() async throws {
        try await expectRefused(try ca.issue(commonName: "elsewhere", dnsNames: ["elsewhere.invalid"], ipAddresses: []), as: .hostMismatch)
    }

    @Test("a public key that is not pinned is pinMismatch")
    func pinMismatch() async throws {
        let other = try ca.issue()
        let pinning = PublicKeyPinningTrustEvaluator(
            pins: [try PublicKeyPin(other.publicKeySHA256Base64)], performsDefaultValidation: false)
        try await expectRefused(try ca.issue(), as: .pinMismatch, evaluator: pinning)
    }
}
