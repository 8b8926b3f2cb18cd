import WebImageCore

/// Trusts a server that presents one of the pinned certificates, byte for byte
/// (Alamofire's `PinnedCertificatesTrustEvaluator`).
///
/// The pinned certificates are also anchors of the default validation, beside the
/// system's authorities, so a pinned self-signed certificate or private authority
/// passes it. Pin the leaf, or an intermediate the server sends; a root the server does
/// not send is never among the presented certificates (to pin such a root, trust it as
/// the only anchor with ``AnchoredTrustEvaluator``).
public struct CertificatePinningTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates. With none, every evaluation fails with `ServerTrustError.Code.pinMismatch`.
    public let certificates: [Certificate]
    /// Which presented certificates may match.
    public let scope: PinScope
    /// Whether the chain is validated first (signatures, dates, a path to the system's
    /// authorities or to a pinned certificate). Without it only the pin is checked, and
    /// the host name is not checked either: `ServerTrust` checks it as part of the chain.
    public let performsDefaultValidation: Bool
    /// Whether the default validation checks that the leaf is for the host.
    public let validateHost: Bool

    private let pinned: Set<Certificate>

    /// An evaluator pinning `certificates`; the other parameters are the properties above.
    public init(
        certificates: [Certificate], scope: PinScope = .anyInChain, performsDefaultValidation: Bool = true, validateHost: Bool = true
    ) {
        self.certificates = certificates
        self.scope = scope
        self.performsDefaultValidation = performsDefaultValidation
        self.validateHost = validateHost
        self.pinned = Set(certificates)
    }

    /// - Throws: the default validation's error, naming the host; `ServerTrustError.Code.invalidCertificate`
    ///   when the server presented no certificate; `ServerTrustError.Code.pinMismatch`
    ///   when no presented certificate in scope is pinned.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        if performsDefaultValidation {
            try trust.requireValid(anchors: .systemAnd(certificates), validatingHost: validateHost)
        }
        let presented = try scope.certificates(presentedBy: trust)
        guard !presented.contains(where: pinned.contains) else { return }
        throw ServerTrustError(
            .pinMismatch,
            scope.mismatchMessage(presented: presented.count, pinned: certificates.count, noun: "certificate"),
            host: trust.host
        )
    }
}
