/// The server's side of a TLS handshake in progress, as a trust evaluator sees it (the
/// part of Apple's `SecTrust` an evaluator needs). The transport makes one per handshake;
/// it is valid only during ``ServerTrustEvaluating/evaluate(_:)`` and is not `Sendable`.
public protocol ServerTrust {
    /// The host of the URL being fetched (a name or an IP address).
    var host: String { get }
    var port: Int { get }
    /// The certificates the server presented, leaf first.
    var certificates: [Certificate] { get }

    /// Validates the presented chain: signatures, validity dates, and a path to one of
    /// `anchors`; and, when `host` is given, that the leaf is for that host (DNS name or
    /// IP address in its subject alternative names).
    ///
    /// - Returns: `nil` when valid, else why not.
    func validate(anchors: TrustAnchors, host: String?) -> ServerTrustError?

    /// SHA-256 of a certificate's DER-encoded SubjectPublicKeyInfo: the value of a
    /// public-key pin (curl's `sha256//` form, base64-encoded). `nil` when the
    /// certificate cannot be parsed. Works for any certificate, not only the server's.
    func publicKeySHA256(of certificate: Certificate) -> [UInt8]?

    /// What the server's stapled OCSP response and the given revocation lists say about
    /// the presented chain: one answer per source and certificate asked about (OCSP:
    /// the leaf; lists: the leaf, or every certificate that is not self-signed), leaf
    /// first. Signatures and dates of responses and lists are checked here; deciding
    /// what the answers mean is the evaluator's. Reads no network.
    func checkRevocation(_ check: RevocationCheck) -> [CertificateRevocation]
}

/// The certificates a chain may lead to.
public enum TrustAnchors: Sendable, Hashable {
    /// The system's certificate authorities.
    case system
    /// Only these certificates.
    case custom([Certificate])
    /// The system's authorities and these.
    case systemAnd([Certificate])
}

/// Decides whether to trust a server, during the TLS handshake, before any request byte
/// is sent (Alamofire's `ServerTrustEvaluating`).
public protocol ServerTrustEvaluating: Sendable {
    /// Returns when the server is trusted; throws why not, and the handshake is aborted.
    func evaluate(_ trust: any ServerTrust) throws(ServerTrustError)

    /// What the transport must arrange before the handshake for this evaluator to see
    /// revocation answers (a stapled OCSP response); `nil` for none. Read on the
    /// transport's thread before connecting.
    var revocationRequirements: RevocationRequirements? { get }
}

/// Chooses the evaluator for each host (Alamofire's `ServerTrustManager`).
public protocol ServerTrustPolicy: Sendable {
    /// The evaluator for `host`, or `nil` for the transport's default validation (system
    /// anchors and host name).
    ///
    /// - Throws: ``ServerTrustError/Code/noEvaluator`` when every host must be evaluated
    ///   and none covers `host`: the request fails before connecting.
    func evaluator(forHost host: String) throws(ServerTrustError) -> (any ServerTrustEvaluating)?
}
