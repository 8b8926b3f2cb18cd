import Foundation

/// A certificate revocation list (RFC 5280), as the bytes of its file: DER, or PEM
/// (`-----BEGIN X509 CRL-----`). It is parsed and its signature checked during the
/// handshake that uses it; a list that cannot be parsed makes every answer it would give
/// ``RevocationStatus/unverifiable(_:)``.
public struct CertificateRevocationList: Sendable, Hashable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// Which certificates of a chain the revocation lists are asked about.
public enum RevocationScope: Sendable, Hashable {
    /// The server's own certificate only.
    case leaf
    /// Every certificate of the chain that is not self-signed: a revoked intermediate
    /// is caught too.
    case wholeChain
}

/// What a trust evaluator asks ``ServerTrust/checkRevocation(_:)`` to look at. Nothing
/// is fetched over the network during a handshake: the OCSP response is the one the
/// server staples, the lists are these, and with ``online`` the answers the transport
/// fetched from the leaf's responder or distribution point before the handshake.
public struct RevocationCheck: Sendable, Hashable {
    /// Whether the server's stapled OCSP response (about its leaf) is read.
    public var readsStapledOCSPResponse: Bool
    /// The revocation lists to consult; none means no CRL answer.
    public var revocationLists: [CertificateRevocationList]
    /// Which certificates the lists are asked about.
    public var scope: RevocationScope
    /// Where the issuer of the topmost presented certificate is looked for (to verify its
    /// list's signature) when the server did not send it.
    public var issuerAnchors: TrustAnchors
    /// When the stapled response and the lists say nothing about the leaf (no answer, or
    /// `unknown`), its own responder or distribution point is asked under this policy;
    /// `nil` for never. See ``OnlineRevocation``.
    public var online: OnlineRevocation?

    public init(
        readsStapledOCSPResponse: Bool, revocationLists: [CertificateRevocationList] = [], scope: RevocationScope = .leaf,
        issuerAnchors: TrustAnchors = .system, online: OnlineRevocation? = nil
    ) {
        self.readsStapledOCSPResponse = readsStapledOCSPResponse
        self.revocationLists = revocationLists
        self.scope = scope
        self.issuerAnchors = issuerAnchors
        self.online = online
    }
}

/// Where a revocation answer came from.
public enum RevocationSource: Sendable, Hashable, CustomStringConvertible {
    /// The OCSP response the server stapled to the handshake.
    case ocsp
    /// A configured certificate revocation list.
    case crl
    /// An OCSP response the transport fetched from the responder the leaf names
    /// (its Authority Information Access extension).
    case ocspResponder
    /// A certificate revocation list the transport downloaded from the distribution
    /// point the leaf names.
    case crlDistributionPoint

    public var description: String {
        switch self {
        case .ocsp: "OCSP"
        case .crl: "CRL"
        case .ocspResponder: "OCSP responder"
        case .crlDistributionPoint: "CRL distribution point"
        }
    }

    /// Whether the answer is an OCSP response (stapled or fetched), not a list.
    public var isOCSP: Bool { self == .ocsp || self == .ocspResponder }
}

/// One source's answer about one certificate.
public enum RevocationStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not revoked, by a response or list that verified and is current.
    case good
    /// Revoked, with the reason the issuer gave (RFC 5280 names: `keyCompromise`, ...)
    /// and the revocation time, when known.
    case revoked(reason: String?, date: Date?)
    /// The source has no answer for this certificate: the OCSP responder says
    /// `unknown`, or no list is from the certificate's issuer.
    case unknown(String)
    /// The server stapled no OCSP response.
    case noResponse
    /// An answer that cannot be trusted: a bad signature, an expired list or response,
    /// a response about another certificate, bytes that do not parse.
    case unverifiable(String)

    public var description: String {
        switch self {
        case .good: "good"
        case .revoked(let reason, let date):
            "revoked" + (reason.map { " (\($0))" } ?? "") + (date.map { " on \($0.formatted(.iso8601))" } ?? "")
        case .unknown(let why): "unknown: \(why)"
        case .noResponse: "no stapled response"
        case .unverifiable(let why): "unverifiable: \(why)"
        }
    }
}

/// What one source says about one certificate of the presented chain.
public struct CertificateRevocation: Sendable, Hashable, CustomStringConvertible {
    /// Its position in ``ServerTrust/certificates`` (0 is the leaf).
    public var certificateIndex: Int
    /// Its subject, in OpenSSL's one-line form (`CN=...`), for messages.
    public var subject: String
    public var source: RevocationSource
    public var status: RevocationStatus

    public init(certificateIndex: Int, subject: String, source: RevocationSource, status: RevocationStatus) {
        self.certificateIndex = certificateIndex
        self.subject = subject
        self.source = source
        self.status = status
    }

    public var description: String { "\(source) for certificate \(certificateIndex) (\(subject)): \(status)" }
}

/// What the transport must do for an evaluator that checks revocation, before the
/// handshake starts.
public struct RevocationRequirements: Sendable, Hashable {
    /// Whether the client asks the server to staple an OCSP response (the TLS
    /// `status_request` extension). The evaluator then runs once that response (or its
    /// absence) is known, still before any request byte is sent.
    public var requestsStapledOCSPResponse: Bool

    public init(requestsStapledOCSPResponse: Bool) {
        self.requestsStapledOCSPResponse = requestsStapledOCSPResponse
    }
}

extension ServerTrust {
    /// A trust that cannot read revocation answers says so for every source asked.
    public func checkRevocation(_ check: RevocationCheck) -> [CertificateRevocation] {
        let why = RevocationStatus.unverifiable("this server trust cannot check revocation")
        var answers: [CertificateRevocation] = []
        if check.readsStapledOCSPResponse {
            answers.append(CertificateRevocation(certificateIndex: 0, subject: "", source: .ocsp, status: why))
        }
        if !check.revocationLists.isEmpty {
            answers.append(CertificateRevocation(certificateIndex: 0, subject: "", source: .crl, status: why))
        }
        return answers
    }
}

extension ServerTrustEvaluating {
    /// No revocation checking: the transport does nothing more.
    public var revocationRequirements: RevocationRequirements? { nil }
}
