import Foundation
import Testing
import WebImageCore
import WebImageSecurity
import WebImageTestSupport
import WebImageTransport

/// Revocation decided in the TLS handshake against nginx stapling OCSP responses made by
/// `openssl` at test time, and CRL files made the same way.
@Suite(
    "Revocation: stapled OCSP and CRLs, checked before any request byte",
    .enabled(if: RevocationPKI.isAvailable, Comment(rawValue: RevocationPKI.missingMessage ?? "")), .serialized)
struct RevocationTests {
    let pki: RevocationPKI

    init() throws {
        pki = try RevocationPKI()
    }

    private var root: TrustAnchors {
        get throws { .custom(try pki.certificates("root/ca.pem").map(Certificate.init(derBytes:))) }
    }

    private func evaluator(
        _ options: RevocationTrustEvaluator.Options, lists: [String] = [], scope: RevocationScope = .leaf
    ) throws -> RevocationTrustEvaluator {
        RevocationTrustEvaluator(
            options: options, revocationLists: try lists.map { CertificateRevocationList(bytes: try pki.bytes($0)) }, scope: scope,
            anchors: try root)
    }

    private func fetch(_ server: StaplingServer, _ evaluator: RevocationTrustEvaluator) async -> TransportError? {
        let transport = CurlTransport(configuration: .init(trustPolicy: ServerTrustManager(evaluators: ["127.0.0.1": evaluator])))
        return await transferError(transport, TransportRequest(url: server.url))
    }

    private func server(_ name: String, stapling: String?, protocols: String = "TLSv1.2 TLSv1.3") throws -> StaplingServer {
        try StaplingServer(
            chain: pki.url("\(name).chain.pem"), key: pki.url("\(name).key"), stapling: stapling.map(pki.url), protocols: protocols)
    }

    @Test(
        "a revoked certificate's stapled OCSP response fails the handshake, naming the certificate, reason and source",
        arguments: ["TLSv1.2", "TLSv1.3"])
    func revokedByOCSP(protocols: String) async throws {
        let server = try server("revoked", stapling: "revoked.ocsp.der", protocols: protocols)
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.ocsp]))
        #expect(error?.code == .serverTrustFailed)
        #expect(error?.trustFailure?.code == .revoked)
        let revocation = try #require(error?.trustFailure?.revocation)
        #expect(revocation.source == .ocsp)
        #expect(revocation.certificateIndex == 0)
        #expect(revocation.subject.contains("revoked server"))
        guard case .revoked(let reason, let date) = revocation.status else {
            Issue.record("expected revoked, got \(revocation.status)")
            return
        }
        #expect(reason == "keyCompromise")
        #expect(date.map { abs($0.timeIntervalSinceNow) < 3600 } == true)
        server.stop()  // the access log is complete once nginx has exited
        #expect(server.requests.isEmpty, "no request reached the server")
    }

    @Test("a good certificate's stapled response passes, with a positive response required", arguments: ["TLSv1.2", "TLSv1.3"])
    func goodByOCSP(protocols: String) async throws {
        let server = try server("good", stapling: "good.ocsp.der", protocols: protocols)
        defer { server.stop() }
        #expect(await fetch(server, try evaluator([.ocsp, .requirePositiveResponse])) == nil)
        server.stop()
        #expect(server.requests.count == 1)
    }

    @Test("a server that staples nothing fails when a positive response is required, and passes when not")
    func noStaple() async throws {
        let server = try server("good", stapling: nil)
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.ocsp, .requirePositiveResponse]))
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.revocation?.status == .noResponse)
        #expect(server.requests.isEmpty)
        #expect(await fetch(server, try evaluator([.ocsp])) == nil)
        server.stop()
        #expect(server.requests.count == 1, "only the second fetch reached the server")
    }

    @Test("a stapled response signed by another key (the issuer's name, a forged key) is refused, never read as good")
    func forgedOCSP() async throws {
        let server = try server("good", stapling: "forged.ocsp.der")
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.ocsp]))
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.revocation?.source == .ocsp)
        server.stop()
        #expect(server.requests.isEmpty)
    }

    @Test("a stapled response about another certificate is refused")
    func responseForAnotherCertificate() async throws {
        let server = try server("good", stapling: "revoked.ocsp.der")
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.ocsp]))
        #expect(error?.trustFailure?.code == .revocationUnverified)
        server.stop()
        #expect(server.requests.isEmpty)
    }

    @Test("an expired stapled response is refused (needs faketime to make it)")
    func expiredOCSP() async throws {
        guard pki.exists("expired.ocsp.der") else {
            print("faketime not found (apt-get install faketime): expired OCSP case skipped")
            return
        }
        let server = try server("good", stapling: "expired.ocsp.der")
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.ocsp]))
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.message.contains("expired") == true)
    }

    @Test("by CRL: the revoked leaf fails, the good one passes with a positive response required")
    func leafByCRL() async throws {
        let revoked = try server("revoked", stapling: nil)
        defer { revoked.stop() }
        let error = await fetch(revoked, try evaluator([.crl], lists: ["inter.crl.pem"]))
        #expect(error?.trustFailure?.code == .revoked)
        #expect(error?.trustFailure?.revocation?.source == .crl)
        #expect(error?.trustFailure?.revocation?.status == .revoked(reason: "keyCompromise", date: error?.trustFailure?.revocation?.date))
        revoked.stop()
        #expect(revoked.requests.isEmpty)

        let good = try server("good", stapling: nil)
        defer { good.stop() }
        #expect(await fetch(good, try evaluator([.crl, .requirePositiveResponse], lists: ["inter.crl.pem"])) == nil)
        good.stop()
        #expect(good.requests.count == 1)
    }

    @Test("a revoked intermediate is caught by the whole-chain scope only")
    func revokedIntermediate() async throws {
        let server = try server("underbad", stapling: nil)
        defer { server.stop() }
        let lists = ["root.crl.pem", "badinter.crl.pem"]
        #expect(await fetch(server, try evaluator([.crl, .requirePositiveResponse], lists: lists, scope: .leaf)) == nil)
        let error = await fetch(server, try evaluator([.crl], lists: lists, scope: .wholeChain))
        #expect(error?.trustFailure?.code == .revoked)
        #expect(error?.trustFailure?.revocation?.certificateIndex == 1)
        #expect(error?.trustFailure?.revocation?.subject.contains("Revoked Intermediate") == true)
        server.stop()
        #expect(server.requests.count == 1, "only the leaf-scoped fetch reached the server")
    }

    @Test("a CRL signed by another key is refused; with no CRL from the issuer a positive answer is missing")
    func forgedAndMissingCRL() async throws {
        let server = try server("good", stapling: nil)
        defer { server.stop() }
        let forged = await fetch(server, try evaluator([.crl], lists: ["forged.crl.pem"]))
        #expect(forged?.trustFailure?.code == .revocationUnverified)
        #expect(forged?.trustFailure?.message.contains("signature") == true)
        let unrelated = await fetch(server, try evaluator([.crl, .requirePositiveResponse], lists: ["root.crl.pem"]))
        #expect(unrelated?.trustFailure?.code == .revocationUnverified)
        if case .unknown = unrelated?.trustFailure?.revocation?.status {} else { Issue.record("expected unknown") }
        server.stop()
        #expect(server.requests.isEmpty)
    }

    @Test("an expired CRL is refused (needs faketime to make it)")
    func expiredCRL() async throws {
        guard pki.exists("expired.crl.pem") else {
            print("faketime not found (apt-get install faketime): expired CRL case skipped")
            return
        }
        let server = try server("good", stapling: nil)
        defer { server.stop() }
        let error = await fetch(server, try evaluator([.crl], lists: ["expired.crl.pem"]))
        #expect(error?.trustFailure?.code == .revocationUnverified)
        #expect(error?.trustFailure?.message.contains("expired") == true)
    }
}

extension CertificateRevocation {
    /// The revocation date of a revoked status, to compare the rest of it.
    fileprivate var date: Date? {
        if case .revoked(_, let date) = status { date } else { nil }
    }
}
