import Foundation
import WebImageCore

/// A pinned public key: the SHA-256 of a certificate's DER-encoded SubjectPublicKeyInfo,
/// the value curl's `CURLOPT_PINNEDPUBKEY` takes as `sha256//BASE64`.
///
/// ```sh
/// # the pin of a server's key
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// A pin made from a certificate (``init(publicKeyOf:)``) holds the certificate: this
/// module has no cryptography of its own, so its digest is computed during an
/// evaluation, by `ServerTrust.publicKeySHA256(of:)`.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    private enum Source: Sendable, Hashable {
        case digest([UInt8])
        case certificate(Certificate)
    }

    private let source: Source

    /// A pin from the 32 bytes of a SHA-256 digest.
    ///
    /// - Throws: ``SecurityError/Code/invalidPin`` when `digest` is not 32 bytes.
    public init(sha256 digest: [UInt8]) throws(SecurityError) {
        guard digest.count == 32 else {
            throw SecurityError(.invalidPin, "a SHA-256 pin has 32 bytes, not \(digest.count)")
        }
        source = .digest(digest)
    }

    /// A pin from curl's form, `sha256//` and the base64 of the digest, or from the bare
    /// base64. Spaces around it are ignored; missing `=` padding is tolerated.
    ///
    /// - Throws: ``SecurityError/Code/invalidPin`` when the text is not base64 or does
    ///   not decode to 32 bytes.
    public init(_ text: String) throws(SecurityError) {
        var base64 = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if base64.hasPrefix("sha256//") { base64.removeFirst(8) }
        if base64.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.count % 4) }
        guard !base64.isEmpty, let data = Data(base64Encoded: base64) else {
            throw SecurityError(.invalidPin, "\"\(text)\" is not a base64 SHA-256 pin (sha256//BASE64)")
        }
        guard data.count == 32 else {
            throw SecurityError(.invalidPin, "\"\(text)\" decodes to \(data.count) bytes; a SHA-256 pin has 32")
        }
        source = .digest(Array(data))
    }

    /// The pin of a certificate's public key, computed when a server is evaluated.
    public init(publicKeyOf certificate: Certificate) {
        source = .certificate(certificate)
    }

    /// The pins of a curl `CURLOPT_PINNEDPUBKEY` list: `sha256//A;sha256//B`.
    ///
    /// - Throws: ``SecurityError/Code/invalidPin`` for the first pin that cannot be read,
    ///   or when there is none.
    public static func list(_ text: String) throws(SecurityError) -> [PublicKeyPin] {
        let items = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw SecurityError(.invalidPin, "no pin in \"\(text)\"") }
        var pins: [PublicKeyPin] = []
        for item in items { pins.append(try PublicKeyPin(item)) }
        return pins
    }

    /// The digest, when the pin was made from one (`nil` for a pin made from a certificate).
    public var sha256: [UInt8]? {
        if case .digest(let digest) = source { digest } else { nil }
    }

    /// The certificate, when the pin was made from one.
    public var certificate: Certificate? {
        if case .certificate(let certificate) = source { certificate } else { nil }
    }

    /// The digest, computed with `trust` for a pin made from a certificate; `nil` when that
    /// certificate cannot be parsed.
    public func sha256(using trust: any ServerTrust) -> [UInt8]? {
        switch source {
        case .digest(let digest): digest
        case .certificate(let certificate): trust.publicKeySHA256(of: certificate)
        }
    }

    /// `sha256//BASE64`, or which certificate the pin is computed from.
    public var description: String {
        switch source {
        case .digest(let digest): Self.curlForm(of: digest)
        case .certificate(let certificate): "the public key of a certificate (\(certificate.derBytes.count) bytes DER)"
        }
    }

    /// `sha256//` and the base64 of `digest`.
    static func curlForm(of digest: [UInt8]) -> String {
        "sha256//" + Data(digest).base64EncodedString()
    }
}
