import WebImageCore

/// A certificate as the fake trust understands it. `Certificate` is opaque DER bytes to
/// this module, so the tests encode these fields in DER-looking bytes (an ASN.1
/// SEQUENCE header, then text) that ``FakeServerTrust`` reads back.
struct TestCertificate: Hashable {
    var subject: String
    var issuer: String
    /// Stands for the public key: equal keys give equal public-key digests.
    var key: String
    /// Subject alternative names.
    var names: [String] = []
    var expired = false
    /// Tells apart certificates that are otherwise alike (a renewal).
    var serial = 1

    var certificate: Certificate {
        let text =
            "subject=\(subject);issuer=\(issuer);key=\(key);names=\(names.joined(separator: ","));expired=\(expired);serial=\(serial)"
        let body = Array(text.utf8)
        return Certificate(derBytes: [0x30, 0x82, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body)
    }

    init(subject: String, issuer: String, key: String, names: [String] = [], expired: Bool = false, serial: Int = 1) {
        self.subject = subject
        self.issuer = issuer
        self.key = key
        self.names = names
        self.expired = expired
        self.serial = serial
    }

    /// Reads back what ``certificate`` wrote; `nil` for other bytes.
    init?(_ certificate: Certificate) {
        let bytes = certificate.derBytes
        guard bytes.count > 4, bytes[0] == 0x30 else { return nil }
        var fields: [String: String] = [:]
        for pair in String(decoding: bytes.dropFirst(4), as: UTF8.self).split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            fields[String(parts[0])] = String(parts[1])
        }
        guard let subject = fields["subject"], let issuer = fields["issuer"], let key = fields["key"] else { return nil }
        self.init(
            subject: subject, issuer: issuer, key: key,
            names: fields["names"].map { $0.split(separator: ",").map(String.init) } ?? [],
            expired: fields["expired"] == "true",
            serial: fields["serial"].flatMap { Int($0) } ?? 1
        )
    }

    /// The fake SHA-256 of this certificate's public key: 32 bytes made from `key`.
    var publicKeyDigest: [UInt8] { Self.digest(ofKey: key) }

    static func digest(ofKey key: String) -> [UInt8] {
        Array((Array(key.utf8) + [UInt8](repeating: 0xA5, count: 32)).prefix(32))
    }
}

/// The certificates the tests use.
enum TestPKI {
    /// One of the system's authorities.
    static let systemRoot = TestCertificate(subject: "System Root CA", issuer: "System Root CA", key: "k-system-root")
    static let intermediate = TestCertificate(subject: "Example Intermediate", issuer: "System Root CA", key: "k-intermediate")
    static let leaf = TestCertificate(
        subject: "images.example.com", issuer: "Example Intermediate", key: "k-leaf", names: ["images.example.com"])
    /// The leaf renewed: a new certificate with the same key.
    static let renewedLeaf = TestCertificate(
        subject: "images.example.com", issuer: "Example Intermediate", key: "k-leaf", names: ["images.example.com"], serial: 2)
    /// The leaf re-keyed: a new certificate with a new key.
    static let rekeyedLeaf = TestCertificate(
        subject: "images.example.com", issuer: "Example Intermediate", key: "k-leaf-2", names: ["images.example.com"], serial: 3)
    static let expiredLeaf = TestCertificate(
        subject: "images.example.com", issuer: "Example Intermediate", key: "k-leaf", names: ["images.example.com"], expired: true,
        serial: 4)
    /// A self-signed server certificate that no authority vouches for.
    static let selfSigned = TestCertificate(subject: "dev.local", issuer: "dev.local", key: "k-dev", names: ["dev.local"])
    /// A private authority, and a server certificate it issued.
    static let privateRoot = TestCertificate(subject: "Private Root", issuer: "Private Root", key: "k-private-root")
    static let privateLeaf = TestCertificate(
        subject: "intranet.example", issuer: "Private Root", key: "k-private-leaf", names: ["intranet.example"])

    /// What images.example.com presents: leaf, then intermediate.
    static let chain = [leaf.certificate, intermediate.certificate]
}
