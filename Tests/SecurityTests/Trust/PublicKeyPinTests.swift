import Foundation
import Testing
import WebImageCore
import WebImageSecurity

@Suite("PublicKeyPin: SHA-256 of a public key, in curl's form or bare")
struct PublicKeyPinTests {
    /// The digest of an empty input: a known 32-byte value.
    static let digest: [UInt8] = [
        0xE3, 0xB0, 0xC4, 0x42, 0x98, 0xFC, 0x1C, 0x14, 0x9A, 0xFB, 0xF4, 0xC8, 0x99, 0x6F, 0xB9, 0x24,
        0x27, 0xAE, 0x41, 0xE4, 0x64, 0x9B, 0x93, 0x4C, 0xA4, 0x95, 0x99, 0x1B, 0x78, 0x52, 0xB8, 0x55,
    ]
    static let base64 = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    @Test("from 32 bytes, shown in curl's form")
    func fromBytes() throws {
        let pin = try PublicKeyPin(sha256: Self.digest)
        #expect(pin.sha256 == Self.digest)
        #expect(pin.certificate == nil)
        #expect(pin.description == "sha256//" + Self.base64)
    }

    @Test("from curl's sha256// form, bare base64, with spaces around or without padding")
    func fromText() throws {
        for text in ["sha256//" + Self.base64, Self.base64, "  sha256//\(Self.base64)\n", "sha256//" + Self.base64.dropLast()] {
            #expect(try PublicKeyPin(text).sha256 == Self.digest, "\(text)")
        }
        #expect(try PublicKeyPin("sha256//" + Self.base64) == PublicKeyPin(sha256: Self.digest))
    }

    @Test("the pin of the documentation's examples reads")
    func documentedExample() throws {
        #expect(try PublicKeyPin.list("sha256//X91ZpU6EKhrEFjgU88+HS9CwgRsWKgkRJRgOGxDb4ew=").count == 1)
    }

    @Test("a list in curl's CURLOPT_PINNEDPUBKEY form")
    func list() throws {
        let other = Data(repeating: 7, count: 32).base64EncodedString()
        let pins = try PublicKeyPin.list("sha256//\(Self.base64);sha256//\(other); ")
        #expect(pins.map(\.sha256) == [Self.digest, [UInt8](repeating: 7, count: 32)])
        #expect(throws: SecurityError.self) { try PublicKeyPin.list(" ; ") }
        #expect(throws: SecurityError.self) { try PublicKeyPin.list("sha256//\(Self.base64);sha256//nope!") }
    }

    @Test(
        "bad input throws invalidPin",
        arguments: [
            "",
            "sha256//",
            "not base64 at all!",
            "sha256//" + String(repeating: "A", count: 43) + "$",
            Data(repeating: 1, count: 20).base64EncodedString(),  // SHA-1 sized
            Data(repeating: 1, count: 64).base64EncodedString(),
            "sha1//" + Self.base64,
        ])
    func badText(_ text: String) {
        #expect {
            try PublicKeyPin(text)
        } throws: { error in
            (error as? SecurityError)?.code == .invalidPin
        }
    }

    @Test("bytes that are not 32 throw invalidPin", arguments: [0, 20, 31, 33, 64])
    func badBytes(_ count: Int) {
        #expect(throws: SecurityError(.invalidPin, "a SHA-256 pin has 32 bytes, not \(count)")) {
            try PublicKeyPin(sha256: [UInt8](repeating: 0, count: count))
        }
    }

    @Test("from a certificate: the digest is asked of the trust at evaluation time")
    func fromCertificate() {
        let pin = PublicKeyPin(publicKeyOf: TestPKI.leaf.certificate)
        #expect(pin.sha256 == nil)
        #expect(pin.certificate == TestPKI.leaf.certificate)
        #expect(pin.sha256(using: FakeServerTrust()) == TestPKI.leaf.publicKeyDigest)
        let trust = FakeServerTrust()
        trust.unreadableKeys = [TestPKI.leaf.certificate]
        #expect(pin.sha256(using: trust) == nil)
        #expect(pin != PublicKeyPin(publicKeyOf: TestPKI.intermediate.certificate))
    }
}
