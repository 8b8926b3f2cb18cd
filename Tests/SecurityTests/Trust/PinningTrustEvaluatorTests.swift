import Foundation
import Testing
import WebImageCore
import WebImageSecurity

@Suite("CertificatePinningTrustEvaluator: a presented certificate must be pinned")
struct CertificatePinningTrustEvaluatorTests {
    @Test("a pinned leaf or intermediate matches in the default scope, any in chain")
    func anyInChain() {
        #expect(CertificatePinningTrustEvaluator(certificates: []).scope == .anyInChain)
        for pinned in [TestPKI.leaf, TestPKI.intermediate] {
            let evaluator = CertificatePinningTrustEvaluator(certificates: [TestPKI.rekeyedLeaf.certificate, pinned.certificate])
            #expect(trustError { try evaluator.evaluate(FakeServerTrust()) } == nil)
        }
    }

    @Test("with the leaf scope, a pinned intermediate does not match")
    func leafOnly() {
        let onLeaf = CertificatePinningTrustEvaluator(certificates: [TestPKI.leaf.certificate], scope: .leaf)
        #expect(trustError { try onLeaf.evaluate(FakeServerTrust()) } == nil)
        let onIntermediate = CertificatePinningTrustEvaluator(certificates: [TestPKI.intermediate.certificate], scope: .leaf)
        let error = trustError { try onIntermediate.evaluate(FakeServerTrust()) }
        #expect(error?.code == .pinMismatch)
        #expect(error?.host == "images.example.com")
        #expect(error?.message == "the leaf certificate does not match the pinned certificate")
    }

    @Test("a certificate is matched byte for byte: the renewed leaf, same key, does not match")
    func byteForByte() {
        let evaluator = CertificatePinningTrustEvaluator(certificates: [TestPKI.leaf.certificate])
        let error = trustError { try evaluator.evaluate(FakeServerTrust(presenting: [TestPKI.renewedLeaf, TestPKI.systemRoot])) }
        #expect(error?.code == .pinMismatch)
        #expect(error?.message == "none of the 2 certificates presented matches the pinned certificate")
    }

    @Test("pinned certificates are anchors of the default validation, beside the system's")
    func pinnedAreAnchors() {
        let evaluator = CertificatePinningTrustEvaluator(certificates: [TestPKI.selfSigned.certificate])
        let trust = FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned])
        #expect(trustError { try evaluator.evaluate(trust) } == nil)
        #expect(trust.validations.first?.anchors == .systemAnd([TestPKI.selfSigned.certificate]))
        #expect(trust.validations.first?.host == "dev.local")
    }

    @Test("the default validation runs first: an expired pinned certificate, or the wrong host, is refused")
    func validationFirst() {
        let evaluator = CertificatePinningTrustEvaluator(certificates: [TestPKI.expiredLeaf.certificate])
        #expect(
            trustError { try evaluator.evaluate(FakeServerTrust(presenting: [TestPKI.expiredLeaf, TestPKI.intermediate])) }?.code
                == .expired)
        let pinned = CertificatePinningTrustEvaluator(certificates: [TestPKI.leaf.certificate])
        let wrongHost = trustError { try pinned.evaluate(FakeServerTrust(host: "other.example.com")) }
        #expect(wrongHost?.code == .hostMismatch)
        #expect(wrongHost?.host == "other.example.com")
        let withoutHost = CertificatePinningTrustEvaluator(certificates: [TestPKI.leaf.certificate], validateHost: false)
        #expect(trustError { try withoutHost.evaluate(FakeServerTrust(host: "other.example.com")) } == nil)
    }

    @Test("without default validation only the pin counts")
    func pinOnly() {
        let evaluator = CertificatePinningTrustEvaluator(certificates: [TestPKI.expiredLeaf.certificate], performsDefaultValidation: false)
        let trust = FakeServerTrust(host: "wrong.example", presenting: [TestPKI.expiredLeaf])
        #expect(trustError { try evaluator.evaluate(trust) } == nil)
        #expect(trust.validations.isEmpty)
        #expect(
            trustError { try evaluator.evaluate(FakeServerTrust(host: "wrong.example", presenting: [TestPKI.leaf])) }?.code == .pinMismatch)
    }

    @Test("no pinned certificate, or no presented one, never matches")
    func nothingToMatch() {
        let none = trustError { try CertificatePinningTrustEvaluator(certificates: []).evaluate(FakeServerTrust()) }
        #expect(none?.code == .pinMismatch)
        #expect(none?.message == "no certificate is pinned, so none can match")
        let empty = CertificatePinningTrustEvaluator(certificates: [TestPKI.leaf.certificate], performsDefaultValidation: false)
        #expect(trustError { try empty.evaluate(FakeServerTrust(certificates: [])) }?.code == .invalidCertificate)
    }
}

@Suite("PublicKeyPinningTrustEvaluator: a presented key must be pinned")
struct PublicKeyPinningTrustEvaluatorTests {
    let leafPin = PublicKeyPin(publicKeyOf: TestPKI.leaf.certificate)

    @Test("a key pin survives the renewal of a certificate that keeps its key")
    func renewal() throws {
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [leafPin])
        #expect(trustError { try evaluator.evaluate(FakeServerTrust()) } == nil)
        #expect(trustError { try evaluator.evaluate(FakeServerTrust(presenting: [TestPKI.renewedLeaf, TestPKI.intermediate])) } == nil)
        let rekeyed = trustError { try evaluator.evaluate(FakeServerTrust(presenting: [TestPKI.rekeyedLeaf, TestPKI.intermediate])) }
        #expect(rekeyed?.code == .pinMismatch)
        #expect(rekeyed?.host == "images.example.com")
    }

    @Test("pins from digests and from certificates are compared with the trust's digests")
    func digestPins() throws {
        let digest = try PublicKeyPin(sha256: TestPKI.leaf.publicKeyDigest)
        #expect(trustError { try PublicKeyPinningTrustEvaluator(pins: [digest]).evaluate(FakeServerTrust()) } == nil)
    }

    @Test("any key in the chain by default; the leaf's only with the leaf scope")
    func scope() {
        let intermediatePin = PublicKeyPin(publicKeyOf: TestPKI.intermediate.certificate)
        #expect(trustError { try PublicKeyPinningTrustEvaluator(pins: [intermediatePin]).evaluate(FakeServerTrust()) } == nil)
        let leafOnly = PublicKeyPinningTrustEvaluator(pins: [intermediatePin], scope: .leaf)
        let error = trustError { try leafOnly.evaluate(FakeServerTrust()) }
        #expect(error?.code == .pinMismatch)
        #expect(error?.message == "the leaf public key does not match the pinned public key; the leaf's is \(TestPKI.leaf.curlPin)")
        #expect(trustError { try PublicKeyPinningTrustEvaluator(pins: [leafPin], scope: .leaf).evaluate(FakeServerTrust()) } == nil)
    }

    @Test("the default validation runs first, against the system's authorities only")
    func validationFirst() {
        let selfSignedPin = PublicKeyPin(publicKeyOf: TestPKI.selfSigned.certificate)
        let trust = FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned])
        #expect(trustError { try PublicKeyPinningTrustEvaluator(pins: [selfSignedPin]).evaluate(trust) }?.code == .untrustedChain)
        #expect(trust.validations.first?.anchors == .system)
        #expect(trust.validations.first?.host == "dev.local")
        let pinOnly = PublicKeyPinningTrustEvaluator(pins: [selfSignedPin], performsDefaultValidation: false)
        #expect(trustError { try pinOnly.evaluate(FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned])) } == nil)
        let withoutHost = PublicKeyPinningTrustEvaluator(pins: [leafPin], validateHost: false)
        #expect(trustError { try withoutHost.evaluate(FakeServerTrust(host: "cdn.example.com")) } == nil)
    }

    @Test("a mismatch names every presented key's fate and gives the leaf's pin")
    func mismatchMessage() {
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [
            PublicKeyPin(publicKeyOf: TestPKI.rekeyedLeaf.certificate), PublicKeyPin(publicKeyOf: TestPKI.selfSigned.certificate),
        ])
        let error = trustError { try evaluator.evaluate(FakeServerTrust()) }
        #expect(
            error?.message
                == "none of the 2 public keys presented matches any of the 2 pinned public keys; the leaf's is \(TestPKI.leaf.curlPin)")
    }

    @Test("a pinned certificate whose key cannot be read fails every evaluation")
    func unreadablePinnedKey() {
        let trust = FakeServerTrust()
        let broken = Certificate(derBytes: [0x30, 0x00])
        trust.unreadableKeys = [broken]
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [leafPin, PublicKeyPin(publicKeyOf: broken)])
        let error = trustError { try evaluator.evaluate(trust) }
        #expect(error?.code == .invalidCertificate)
        #expect(error?.message == "the public key of pinned certificate #2 cannot be read")
    }

    @Test("a presented certificate whose key cannot be read matches nothing")
    func unreadablePresentedKey() throws {
        let trust = FakeServerTrust()
        trust.unreadableKeys = [TestPKI.leaf.certificate]
        let pin = try PublicKeyPin(sha256: TestPKI.leaf.publicKeyDigest)
        let error = trustError { try PublicKeyPinningTrustEvaluator(pins: [pin], performsDefaultValidation: false).evaluate(trust) }
        #expect(error?.code == .pinMismatch)
        #expect(error?.message == "none of the 2 public keys presented matches the pinned public key")
    }

    @Test("no pins, or no presented certificate, never matches")
    func nothingToMatch() {
        #expect(trustError { try PublicKeyPinningTrustEvaluator(pins: []).evaluate(FakeServerTrust()) }?.code == .pinMismatch)
        let pinOnly = PublicKeyPinningTrustEvaluator(pins: [leafPin], performsDefaultValidation: false)
        #expect(trustError { try pinOnly.evaluate(FakeServerTrust(certificates: [])) }?.code == .invalidCertificate)
    }
}

extension TestCertificate {
    /// The key's pin in curl's form.
    var curlPin: String { "sha256//" + Data(publicKeyDigest).base64EncodedString() }
}
