import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageSecurity

/// The decision of `RevocationTrustEvaluator` on given answers (the answers themselves
/// are made by OpenSSL in the transport's tests).
@Suite("RevocationTrustEvaluator: what revocation answers mean")
struct RevocationTrustEvaluatorTests {
    private let list = CertificateRevocationList(bytes: [0x30])
    private let anchors = TrustAnchors.system

    private func answer(_ source: RevocationSource, _ status: RevocationStatus, index: Int = 0) -> CertificateRevocation {
        CertificateRevocation(certificateIndex: index, subject: "CN=\(index)", source: source, status: status)
    }

    private func trust(_ answers: [CertificateRevocation]) -> FakeServerTrust {
        let trust = FakeServerTrust()
        trust.revocationAnswers = answers
        return trust
    }

    private func failure(_ evaluator: RevocationTrustEvaluator, _ trust: FakeServerTrust) -> ServerTrustError? {
        do {
            try evaluator.evaluate(trust)
            return nil
        } catch {
            return error
        }
    }

    @Test("a revoked answer from either source fails with .revoked, naming host, certificate and source")
    func revoked() {
        let evaluator = RevocationTrustEvaluator(options: [.ocsp, .crl], revocationLists: [list])
        let error = failure(evaluator, trust([answer(.ocsp, .good), answer(.crl, .revoked(reason: "keyCompromise", date: nil))]))
        #expect(error?.code == .revoked)
        #expect(error?.host == "images.example.com")
        #expect(error?.revocation?.source == .crl)
        #expect(error?.message.contains("keyCompromise") == true)
    }

    @Test("an unverifiable answer is never a pass, even when the other source says good")
    func unverifiable() {
        let evaluator = RevocationTrustEvaluator(options: [.ocsp, .crl], revocationLists: [list])
        let error = failure(evaluator, trust([answer(.ocsp, .unverifiable("bad signature")), answer(.crl, .good)]))
        #expect(error?.code == .revocationUnverified)
        #expect(error?.revocation?.source == .ocsp)
    }

    @Test("silence passes by default and fails when a positive response is required")
    func silence() {
        let silent = trust([answer(.ocsp, .noResponse), answer(.crl, .unknown("no list"))])
        #expect(failure(RevocationTrustEvaluator(options: [.ocsp, .crl], revocationLists: [list]), silent) == nil)
        let strict = RevocationTrustEvaluator(options: [.ocsp, .crl, .requirePositiveResponse], revocationLists: [list])
        #expect(failure(strict, silent)?.code == .revocationUnverified)
        #expect(failure(strict, silent)?.revocation?.status == .noResponse, "OCSP is consulted first by default")
    }

    @Test("with preferCRL the lists' answer is reported first")
    func preferCRL() {
        let both = trust([answer(.ocsp, .revoked(reason: nil, date: nil)), answer(.crl, .revoked(reason: nil, date: nil))])
        let evaluator = RevocationTrustEvaluator(options: [.ocsp, .crl, .preferCRL], revocationLists: [list])
        #expect(failure(evaluator, both)?.revocation?.source == .crl)
    }

    @Test("a positive answer from one source is enough for a certificate; each certificate asked about needs one")
    func positivePerCertificate() {
        let strict = RevocationTrustEvaluator(
            options: [.ocsp, .crl, .requirePositiveResponse], revocationLists: [list], scope: .wholeChain)
        #expect(failure(strict, trust([answer(.ocsp, .noResponse), answer(.crl, .good), answer(.crl, .good, index: 1)])) == nil)
        let error = failure(strict, trust([answer(.ocsp, .good), answer(.crl, .good), answer(.crl, .unknown("none"), index: 1)]))
        #expect(error?.revocation?.certificateIndex == 1)
    }

    @Test("the chain is validated first; its error comes before any revocation answer")
    func chainFirst() {
        let trust = trust([answer(.ocsp, .revoked(reason: nil, date: nil))])
        let error = failure(RevocationTrustEvaluator(options: [.ocsp], anchors: .custom([])), trust)
        #expect(error?.code == .untrustedChain)
    }

    @Test("asks for a stapled response only with .ocsp, and passes the lists, scope and anchors to the trust")
    func requirements() throws {
        #expect(RevocationTrustEvaluator(options: [.ocsp]).revocationRequirements?.requestsStapledOCSPResponse == true)
        #expect(RevocationTrustEvaluator(options: [.crl]).revocationRequirements?.requestsStapledOCSPResponse == false)
        #expect(DefaultTrustEvaluator().revocationRequirements == nil)
        let composite = CompositeTrustEvaluator([DefaultTrustEvaluator(), RevocationTrustEvaluator(options: [.ocsp])])
        #expect(composite.revocationRequirements?.requestsStapledOCSPResponse == true)

        let trust = trust([])
        let evaluator = RevocationTrustEvaluator(options: [.crl], revocationLists: [list], scope: .wholeChain)
        _ = failure(evaluator, trust)
        let check = try #require(trust.revocationChecks.first)
        #expect(
            check == RevocationCheck(readsStapledOCSPResponse: false, revocationLists: [list], scope: .wholeChain, issuerAnchors: .system))
    }

    @Test("revocation list files are read when the evaluator is made; a missing one is a SecurityError")
    func listFiles() {
        #expect(throws: SecurityError.self) {
            _ = try RevocationTrustEvaluator(revocationListFiles: [URL(fileURLWithPath: "/nonexistent/ca.crl")])
        }
    }

    @Test("online: the policy reaches the check; a fetched answer decides as any other, after the offline ones")
    func online() {
        let policy = OnlineRevocation(whenUnreachable: .hardFail)
        let evaluator = RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse], online: policy)
        let fetchedGood = trust([answer(.ocsp, .noResponse), answer(.ocspResponder, .good)])
        #expect(failure(evaluator, fetchedGood) == nil, "the fetched good answer is the positive one")
        #expect(fetchedGood.revocationChecks.first?.online == policy)
        let fetchedRevoked = failure(
            evaluator, trust([answer(.ocsp, .noResponse), answer(.crlDistributionPoint, .revoked(reason: nil, date: nil))]))
        #expect(fetchedRevoked?.code == .revoked)
        #expect(fetchedRevoked?.revocation?.source == .crlDistributionPoint)
        let silent = failure(evaluator, trust([answer(.ocsp, .noResponse), answer(.ocspResponder, .unknown("soft-failed"))]))
        #expect(silent?.revocation?.status == .noResponse, "the stapled answer is reported before the fetched one")
        let offlineOnly = RevocationTrustEvaluator(options: [])
        #expect(
            failure(offlineOnly, trust([answer(.ocspResponder, .revoked(reason: nil, date: nil))])) == nil, "nothing asked, nothing read")
    }
}
