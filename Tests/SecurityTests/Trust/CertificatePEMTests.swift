import Foundation
import Testing
import WebImageCore

@testable import WebImageSecurity

/// `Certificate.fromPEM` and `Certificate.load(contentsOf:)`, which this module's anchors
/// and pins are read with, on the module's one PEM scanner (the one client identities use).
@Suite("Certificates from PEM and DER")
struct CertificatePEMTests {
    let first = TestPKI.leaf.certificate
    let second = TestPKI.intermediate.certificate

    @Test("every CERTIFICATE block, in order; other blocks and text around them are skipped")
    func multiple() throws {
        let pem = """
            subject=CN=images.example.com
            issuer=CN=Example Intermediate
            \(PEM.block("CERTIFICATE", first.derBytes))
            \(PEM.block("PRIVATE KEY", PEM.keyBytes))
            Bag Attributes: junk between blocks
            \(PEM.block("CERTIFICATE", second.derBytes))
            """
        #expect(try Certificate.fromPEM(pem) == [first, second])
    }

    @Test("Windows line ends and indented lines are read")
    func lineEnds() throws {
        let pem = PEM.certificates([first, second]).replacing("\n", with: "\r\n").split(separator: "\r\n").map { "  " + $0 }.joined(
            separator: "\r\n")
        #expect(try Certificate.fromPEM(pem) == [first, second])
    }

    @Test(
        "no certificate, or only other blocks, throws invalidCertificate",
        arguments: [
            "",
            "just some text",
            PEM.block("PRIVATE KEY", PEM.keyBytes),
            "-----BEGIN CERTIFICATE-----\nMIIB\n",  // never ends
        ])
    func none(_ pem: String) {
        #expect {
            try Certificate.fromPEM(pem)
        } throws: { error in
            (error as? ServerTrustError)?.code == .invalidCertificate
        }
    }

    @Test("a CERTIFICATE block closed by another label's END line is not a certificate")
    func mismatchedEnd() {
        let base64 = Data(first.derBytes).base64EncodedString()
        let pem = "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END PRIVATE KEY-----\n"
        #expect(throws: ServerTrustError(.invalidCertificate, "no CERTIFICATE block in the PEM text")) {
            try Certificate.fromPEM(pem)
        }
        // A client identity's scanner reads the same text the same way.
        #expect(PEMText(pem).blocks.isEmpty)
    }

    @Test("a block with broken base64 throws invalidCertificate")
    func brokenBase64() {
        let good = PEM.block("CERTIFICATE", first.derBytes)
        let broken = "-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1\n-----END CERTIFICATE-----\n"
        #expect(throws: ServerTrustError(.invalidCertificate, "a CERTIFICATE block's base64 is damaged")) {
            try Certificate.fromPEM(good + broken)
        }
    }

    @Test("a file is PEM (one or more certificates) or DER (exactly one); anything else throws")
    func files() throws {
        let directory = try TemporaryDirectory()
        #expect(try Certificate.load(contentsOf: directory.write("chain.pem", PEM.certificates([first, second]))) == [first, second])
        #expect(try Certificate.load(contentsOf: directory.write("leaf.der", first.derBytes)) == [first])
        #expect(throws: ServerTrustError.self) { try Certificate.load(contentsOf: directory.write("junk.bin", [0x00, 0x01, 0x02])) }
        #expect(throws: ServerTrustError.self) { try Certificate.load(contentsOf: directory.url.appending(path: "missing.pem")) }
    }
}
