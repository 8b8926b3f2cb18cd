/// A mistake in what was given to this module: a public-key pin that cannot be read, a
/// client certificate or key file that is missing, unreadable or not what it should be.
///
/// Failures during a handshake are `ServerTrustError`s (from Core); this error is for
/// configuration, thrown when it is built, before any connection.
public struct SecurityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake; compare with the constants below.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A public-key pin is not 32 bytes, or not base64 (``PublicKeyPin``).
        public static let invalidPin = Code("invalidPin")
        /// A file could not be read.
        public static let unreadableFile = Code("unreadableFile")
        /// No `CERTIFICATE` block, or one whose base64 is damaged.
        public static let invalidCertificate = Code("invalidCertificate")
        /// No private key block, more than one, or one whose base64 is damaged.
        public static let invalidPrivateKey = Code("invalidPrivateKey")
        /// The private key is encrypted and no passphrase was given.
        public static let passphraseRequired = Code("passphraseRequired")
    }

    /// What kind of mistake.
    public var code: Code
    /// Which input, and what is wrong with it.
    public var message: String

    /// An error of kind `code`, explained by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
