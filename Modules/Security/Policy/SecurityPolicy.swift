import WebImageCore

/// A trust policy in AFNetworking's terms (`AFSecurityPolicy`): a pinning mode, the
/// pinned certificates, and two switches. It builds the evaluators of this module and can
/// be used as an evaluator itself.
///
/// ```swift
/// let policy = SecurityPolicy.pinningPublicKeys(of: try Certificate.fromPEM(pem))
/// let manager = policy.trustManager(forHosts: ["images.example.com"])
/// ```
///
/// What ``evaluator`` is, by mode:
///
/// | pinning | `allowsInvalidCertificates` false | true |
/// |---|---|---|
/// | `.none` | ``DefaultTrustEvaluator`` | ``DangerouslyDisabledTrustEvaluator``, or every evaluation fails when `validatesDomainName` (see below) |
/// | `.certificate` | ``CertificatePinningTrustEvaluator``, any certificate of the chain | the same without chain validation: the pin alone |
/// | `.publicKey` | ``PublicKeyPinningTrustEvaluator``, any key of the chain | the same without chain validation: the pin alone |
///
/// As in AFNetworking:
/// - `allowsInvalidCertificates` skips chain validation (authorities, dates, and with
///   them the host name) but a pin must still match.
/// - Pinning with no pinned certificate fails every evaluation with
///   `ServerTrustError.Code.pinMismatch`: nothing can match, and falling back to no
///   pinning would be a silent downgrade.
/// - `allowsInvalidCertificates` and `validatesDomainName` without pinning fail every
///   evaluation (`ServerTrustError.Code.validationFailed`): the name of a certificate
///   whose chain is not validated means nothing, so pin, or set `validatesDomainName`
///   to false as well.
/// - In `.none` mode, `pinnedCertificates` are ignored.
public struct SecurityPolicy: ServerTrustEvaluating, Hashable {
    /// What is pinned.
    public enum PinningMode: Sendable, Hashable {
        /// Nothing: the chain is validated against the system's authorities.
        case none
        /// The certificates themselves, byte for byte.
        case certificate
        /// The public keys of the pinned certificates.
        case publicKey
    }

    /// What is pinned: nothing, certificates, or their public keys.
    public var pinning: PinningMode
    /// The certificates (or whose keys) a server's chain must contain.
    public var pinnedCertificates: [Certificate]
    /// Whether chain validation is skipped. Only for development servers.
    public var allowsInvalidCertificates: Bool
    /// Whether the leaf must be for the host being fetched.
    public var validatesDomainName: Bool

    /// A policy; the defaults are ``default``: no pinning, chain and host validated.
    public init(
        pinning: PinningMode = .none, pinnedCertificates: [Certificate] = [], allowsInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true
    ) {
        self.pinning = pinning
        self.pinnedCertificates = pinnedCertificates
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.validatesDomainName = validatesDomainName
    }

    /// The system's authorities and the host name: what the transport does by default.
    public static let `default` = SecurityPolicy()

    /// A valid chain that contains one of `certificates`.
    public static func pinningCertificates(_ certificates: [Certificate]) -> SecurityPolicy {
        SecurityPolicy(pinning: .certificate, pinnedCertificates: certificates)
    }

    /// A valid chain with a certificate that has the public key of one of `certificates`.
    public static func pinningPublicKeys(of certificates: [Certificate]) -> SecurityPolicy {
        SecurityPolicy(pinning: .publicKey, pinnedCertificates: certificates)
    }

    /// The evaluator this policy stands for (see the table above).
    public var evaluator: any ServerTrustEvaluating {
        if pinning != .none, pinnedCertificates.isEmpty {
            return RejectingTrustEvaluator(code: .pinMismatch, message: "the security policy pins, but no certificate is pinned")
        }
        let validatesChain = !allowsInvalidCertificates
        switch pinning {
        case .none where validatesChain:
            return DefaultTrustEvaluator(validateHost: validatesDomainName)
        case .none where validatesDomainName:
            return RejectingTrustEvaluator(
                code: .validationFailed,
                message:
                    "the security policy allows invalid certificates but validates the domain name, which needs pinning; pin, or stop validating the domain name"
            )
        case .none:
            return DangerouslyDisabledTrustEvaluator()
        case .certificate:
            return CertificatePinningTrustEvaluator(
                certificates: pinnedCertificates, scope: .anyInChain,
                performsDefaultValidation: validatesChain, validateHost: validatesDomainName
            )
        case .publicKey:
            return PublicKeyPinningTrustEvaluator(
                pins: pinnedCertificates.map(PublicKeyPin.init(publicKeyOf:)), scope: .anyInChain,
                performsDefaultValidation: validatesChain, validateHost: validatesDomainName
            )
        }
    }

    /// Evaluates with ``evaluator``.
    public func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {
        try evaluator.evaluate(trust)
    }

    /// A manager that applies this policy to `hosts` (names or `*.domain` wildcards, see
    /// ``ServerTrustManager``); names that differ only by case count once.
    public func trustManager(forHosts hosts: [String], allHostsMustBeEvaluated: Bool = true) -> ServerTrustManager {
        var evaluators: [String: any ServerTrustEvaluating] = [:]
        let evaluator = self.evaluator
        for host in hosts { evaluators[HostName.normalized(host)] = evaluator }
        return ServerTrustManager(allHostsMustBeEvaluated: allHostsMustBeEvaluated, evaluators: evaluators)
    }
}
