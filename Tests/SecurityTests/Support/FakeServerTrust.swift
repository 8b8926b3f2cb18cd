import Synchronization

@testable import WebImageConcurrency
@testable import WebImageCore

/// A `ServerTrust` with the rules of a real one, on ``TestCertificate``s: a chain is
/// valid when a presented certificate is an anchor or was issued by one, and none has
/// expired; the host must be among the leaf's names. It records what it was asked.
/// Its errors name no host, so the tests see the evaluators add it.
final class FakeServerTrust: ServerTrust {
    let host: String
    let port: Int
    let certificates: [Certificate]
    /// The system's authorities.
    var systemAnchors: [Certificate] = [TestPKI.systemRoot.certificate]
    /// The arguments of every `validate` call, in order.
    private(set) var validations: [(anchors: TrustAnchors, host: String?)] = []
    /// Certificates whose public key "cannot be parsed".
    var unreadableKeys: Set<Certificate> = []

    init(host: String = "images.example.com", port: Int = 443, certificates: [Certificate] = TestPKI.chain) {
        self.host = host
        self.port = port
        self.certificates = certificates
    }

    convenience init(host: String = "images.example.com", presenting chain: [TestCertificate]) {
        self.init(host: host, certificates: chain.map(\.certificate))
    }

    func validate(anchors: TrustAnchors, host: String?) -> ServerTrustError? {
        validations.append((anchors, host))
        let trusted: [Certificate] =
            switch anchors {
            case .system: systemAnchors
            case .custom(let custom): custom
            case .systemAnd(let custom): systemAnchors + custom
            }
        let chain = certificates.compactMap(TestCertificate.init)
        guard let leaf = chain.first, chain.count == certificates.count else {
            return ServerTrustError(.invalidCertificate, "unreadable chain")
        }
        if chain.contains(where: \.expired) {
            return ServerTrustError(.expired, "a certificate has expired")
        }
        let anchorSubjects = Set(trusted.compactMap(TestCertificate.init).map(\.subject))
        let leadsToAnchor = certificates.contains(where: trusted.contains) || chain.contains { anchorSubjects.contains($0.issuer) }
        guard leadsToAnchor else {
            return ServerTrustError(.untrustedChain, "no path to an anchor")
        }
        if let host, !leaf.names.contains(host) {
            return ServerTrustError(.hostMismatch, "the certificate is for \(leaf.names)")
        }
        return nil
    }

    func publicKeySHA256(of certificate: Certificate) -> [UInt8]? {
        guard !unreadableKeys.contains(certificate) else { return nil }
        return TestCertificate(certificate)?.publicKeyDigest
    }

    /// The answers `checkRevocation` gives, by source (filtered by what is asked).
    var revocationAnswers: [CertificateRevocation] = []
    /// The arguments of every `checkRevocation` call, in order.
    private(set) var revocationChecks: [RevocationCheck] = []

    func checkRevocation(_ check: RevocationCheck) -> [CertificateRevocation] {
        revocationChecks.append(check)
        return revocationAnswers.filter { answer in
            switch answer.source {
            case .ocsp: check.readsStapledOCSPResponse
            case .crl: !check.revocationLists.isEmpty && (check.scope == .wholeChain || answer.certificateIndex == 0)
            case .ocspResponder, .crlDistributionPoint: check.online != nil && answer.certificateIndex == 0
            }
        }
    }
}

/// An evaluator that records that it ran and passes or throws as told.
struct RecordingEvaluator: ServerTrustEvaluating {
    let name: String
    let failure: ServerTrustError?
    let log: Log

    final class Log: Sendable {
        private let entries = Locked<[String]>([])
        var names: [String] { entries.withLock { $0 } }
        func append(_ name: String) { entries.withLock { $0.append(name) } }
    }

    init(_ name: String, failure: ServerTrustError? = nil, log: Log) {
        self.name = name
        self.failure = failure
        self.log = log
    }

    func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        log.append(name)
        if let failure { throw failure }
    }
}
