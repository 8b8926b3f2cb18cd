import Foundation
import WebImageCore

extension ClientIdentity {
    /// The labels of the private key blocks an identity accepts: PKCS#8, PKCS#1 (RSA),
    /// SEC1 (EC), and encrypted PKCS#8.
    public static let privateKeyLabels: Set<String> = ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]

    /// An identity from PEM files: the client certificate and any intermediates, and the
    /// private key. Both may be the same file (certificate and key together).
    ///
    /// Only the PEM structure is checked here: that the certificate file holds at least
    /// one `CERTIFICATE` block and the key file exactly one private key block, with sound
    /// base64, and that an encrypted key has a passphrase. Whether the key belongs to the
    /// certificate, and whether the passphrase opens it, is found in the TLS handshake.
    /// Text outside the blocks (comments, `openssl` output) is dropped; blocks keep their
    /// headers.
    ///
    /// - Throws: ``SecurityError/Code/unreadableFile``, ``SecurityError/Code/invalidCertificate``,
    ///   ``SecurityError/Code/invalidPrivateKey`` or ``SecurityError/Code/passphraseRequired``,
    ///   naming the file.
    public static func load(certificateFile: URL, privateKeyFile: URL, passphrase: String? = nil) throws(SecurityError) -> ClientIdentity {
        try fromPEM(
            certificateChain: read(certificateFile),
            privateKey: certificateFile == privateKeyFile ? read(certificateFile) : read(privateKeyFile),
            passphrase: passphrase,
            certificateSource: certificateFile.path,
            privateKeySource: privateKeyFile.path
        )
    }

    /// An identity from PEM texts, checked as ``load(certificateFile:privateKeyFile:passphrase:)``
    /// checks files.
    public static func fromPEM(certificateChain: String, privateKey: String, passphrase: String? = nil) throws(SecurityError)
        -> ClientIdentity
    {
        try fromPEM(
            certificateChain: certificateChain, privateKey: privateKey, passphrase: passphrase,
            certificateSource: "the certificate text", privateKeySource: "the private key text"
        )
    }

    private static func fromPEM(
        certificateChain: String, privateKey: String, passphrase: String?,
        certificateSource: String, privateKeySource: String
    ) throws(SecurityError) -> ClientIdentity {
        let certificates = PEMText(certificateChain).blocks.filter { $0.label == "CERTIFICATE" }
        guard !certificates.isEmpty else {
            throw SecurityError(.invalidCertificate, "no CERTIFICATE block in \(certificateSource)")
        }
        for (index, block) in certificates.enumerated() where !block.hasValidBody {
            throw SecurityError(
                .invalidCertificate, "CERTIFICATE block #\(index + 1) of \(certificateSource) is empty or its base64 is damaged")
        }
        let keys = PEMText(privateKey).blocks.filter { privateKeyLabels.contains($0.label) }
        guard let key = keys.first else {
            throw SecurityError(
                .invalidPrivateKey, "no private key block (\(privateKeyLabels.sorted().joined(separator: ", "))) in \(privateKeySource)")
        }
        guard keys.count == 1 else {
            throw SecurityError(.invalidPrivateKey, "\(keys.count) private keys in \(privateKeySource); which one to use cannot be told")
        }
        guard key.hasValidBody else {
            throw SecurityError(.invalidPrivateKey, "the \(key.label) block of \(privateKeySource) is empty or its base64 is damaged")
        }
        if key.isEncrypted, passphrase == nil {
            throw SecurityError(.passphraseRequired, "the private key in \(privateKeySource) is encrypted and no passphrase was given")
        }
        return ClientIdentity(
            certificateChainPEM: certificates.map(\.text).joined(),
            privateKeyPEM: key.text,
            passphrase: passphrase
        )
    }

    private static func read(_ file: URL) throws(SecurityError) -> String {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw SecurityError(.unreadableFile, "cannot read \(file.path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SecurityError(.unreadableFile, "\(file.path) is not PEM text (not UTF-8; a DER file must be converted to PEM)")
        }
        return text
    }
}
