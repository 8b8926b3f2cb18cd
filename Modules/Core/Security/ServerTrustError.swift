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
        /// Validation failed for another reason; the message says which.
        public static let validationFailed = Code("validationFailed")
    }

    public var code: Code
    public var message: String
    /// The host being evaluated, when known.
    public var host: String?

    public init(_ code: Code, _ message: String, host: String? = nil) {
        self.code = code
        self.message = message
        self.host = host
    }

    public var description: String {
        host.map { "\(code) for \($0): \(message)" } ?? "\(code): \(message)"
    }
}
