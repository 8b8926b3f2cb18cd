import Foundation
import Testing
import WebImageCore
import WebImageSecurity

@Suite("ClientIdentity from PEM files")
struct ClientIdentityPEMTests {
    let leaf = PEM.block("CERTIFICATE", TestPKI.leaf.certificate.derBytes)
    let intermediate = PEM.block("CERTIFICATE", TestPKI.intermediate.certificate.derBytes)

    /// The code of the `SecurityError` `body` throws, or `nil` when it returns.
    func code(_ body: () throws -> ClientIdentity) -> SecurityError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? SecurityError)?.code
        }
    }

    @Test(
        "certificate chain and key from two files; text outside the blocks is dropped",
        arguments: ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"])
    func twoFiles(_ keyLabel: String) throws {
        let directory = try TemporaryDirectory()
        let key = PEM.block(keyLabel, PEM.keyBytes)
        let certificateFile = try directory.write(
            "client.crt", "Bag Attributes\n    friendlyName: client\n" + leaf + "subject=intermediate\n" + intermediate)
        let keyFile = try directory.write("client.key", "# the key\n" + key)
        let identity = try ClientIdentity.load(certificateFile: certificateFile, privateKeyFile: keyFile, passphrase: nil)
        #expect(identity.certificateChainPEM == leaf + intermediate)
        #expect(identity.privateKeyPEM == key)
        #expect(identity.passphrase == nil)
        #expect(try Certificate.fromPEM(identity.certificateChainPEM) == [TestPKI.leaf.certificate, TestPKI.intermediate.certificate])
    }

    @Test("certificate and key in one file")
    func oneFile() throws {
        let directory = try TemporaryDirectory()
        let key = PEM.block("PRIVATE KEY", PEM.keyBytes)
        let file = try directory.write("client.pem", key + leaf)
        let identity = try ClientIdentity.load(certificateFile: file, privateKeyFile: file)
        #expect(identity.certificateChainPEM == leaf)
        #expect(identity.privateKeyPEM == key)
    }

    @Test("an encrypted key needs a passphrase; its headers are kept")
    func encrypted() throws {
        let pkcs8 = PEM.block("ENCRYPTED PRIVATE KEY", PEM.keyBytes)
        let legacy = PEM.block(
            "RSA PRIVATE KEY", PEM.keyBytes, headers: ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F17F5316E2BAC89"])
        for key in [pkcs8, legacy] {
            #expect(code { try ClientIdentity.fromPEM(certificateChain: leaf, privateKey: key) } == .passphraseRequired)
            let identity = try ClientIdentity.fromPEM(certificateChain: leaf, privateKey: key, passphrase: "secret")
            #expect(identity.privateKeyPEM == key)
            #expect(identity.passphrase == "secret")
        }
    }

    @Test("what is missing or damaged is a SecurityError saying which")
    func mistakes() throws {
        let key = PEM.block("PRIVATE KEY", PEM.keyBytes)
        let brokenCertificate = "-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1\n-----END CERTIFICATE-----\n"
        let cases: [(certificate: String, key: String, expected: SecurityError.Code)] = [
            ("", key, .invalidCertificate),
            (key, key, .invalidCertificate),
            (leaf + brokenCertificate, key, .invalidCertificate),
            ("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n", key, .invalidCertificate),
            (leaf, "", .invalidPrivateKey),
            (leaf, leaf, .invalidPrivateKey),
            (leaf, PEM.block("PUBLIC KEY", PEM.keyBytes), .invalidPrivateKey),
            (leaf, key + PEM.block("EC PRIVATE KEY", PEM.keyBytes), .invalidPrivateKey),
            (leaf, "-----BEGIN PRIVATE KEY-----\nAAAA=A\n-----END PRIVATE KEY-----\n", .invalidPrivateKey),
            (leaf, "-----BEGIN PRIVATE KEY-----\n" + "MIIE\n", .invalidPrivateKey),  // never ends
            (leaf, "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n", .invalidPrivateKey),
        ]
        for item in cases {
            #expect(
                code { try ClientIdentity.fromPEM(certificateChain: item.certificate, privateKey: item.key) } == item.expected, "\(item)")
        }
    }

    @Test("a file that cannot be read, or is not text, is unreadableFile, naming it")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        let keyFile = try directory.write("client.key", PEM.block("PRIVATE KEY", PEM.keyBytes))
        let missing = directory.url.appending(path: "missing.crt")
        #expect {
            try ClientIdentity.load(certificateFile: missing, privateKeyFile: keyFile)
        } throws: { error in
            let error = error as? SecurityError
            return error?.code == .unreadableFile && error?.message.contains("missing.crt") == true
        }
        let der = try directory.write("client.der", [0x30, 0x82, 0xFF, 0xFE, 0xC0])
        #expect(code { try ClientIdentity.load(certificateFile: der, privateKeyFile: keyFile) } == .unreadableFile)
    }
}
