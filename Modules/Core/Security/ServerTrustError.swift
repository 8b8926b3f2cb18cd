/// Why a server's certificate chain was not trusted.
public struct ServerTrustError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// Every host must be evaluated and none of the evaluators covers this one.
        public static let noEvaluator = Code("noEvaluator")
        /// The chain does not lead to a trusted anchor (self-signed, unknown issuer).
        public static let untrustedChain = Code("untrustedChain")
        /// A certificate of the chain has expired or is not yet valid.
        public static let expired = Code("expired")
        /// The certificate is not for the host that was asked for.
        public static let hostMismatch = Code("hostMismatch")
        /// No pinned certificate or public key matches the server's chain.
        public static let pinMismatch = Code("pinMismatch")
        /// A certificate could not be parsed, or the server sent none.
        public static let invalidCertificate = Code("invalidCertificate")
        /// A certificate of the chain is revoked: ``ServerTrustError/revocation`` says
        /// which, why, and whether OCSP or a CRL said so.
        public static let revoked = Code("revoked")
        /// Revocation could not be established as required: no stapled OCSP response
        /// when a positive answer is required, or a response or list that does not
        /// verify or has expired (``ServerTrustError/revocation`` says which).
        public static let revocationUnverified = Code("revocationUnverified")
        /// Validation failed for another reason; the message says which.
        public static let validationFailed = Code("validationFailed")
    }

    public var code: Code
    public var message: String
    /// The host being evaluated, when known.
    public var host: String?
    /// For ``Code/revoked`` and ``Code/revocationUnverified``: the certificate, the
    /// source and its answer.
    public var revocation: CertificateRevocation?

    public init(_ code: Code, _ message: String, host: String? = nil, revocation: CertificateRevocation? = nil) {
        self.code = code
        self.message = message
        self.host = host
        self.revocation = revocation
    }

    public var description: String {
        host.map { "\(code) for \($0): \(message)" } ?? "\(code): \(message)"
    }
}
