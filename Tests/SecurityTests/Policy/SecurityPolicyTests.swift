import Testing
import WebImageCore
import WebImageSecurity

@Suite("SecurityPolicy: AFSecurityPolicy's presets on the evaluators")
struct SecurityPolicyTests {
    func selfSignedTrust() -> FakeServerTrust { FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned]) }

    @Test("the default validates the chain against the system's authorities, and the host")
    func defaultPolicy() {
        let policy = SecurityPolicy.default
        #expect(
            policy == SecurityPolicy(pinning: .none, pinnedCertificates: [], allowsInvalidCertificates: false, validatesDomainName: true))
        #expect(policy.evaluator is DefaultTrustEvaluator)
        #expect(trustError { try policy.evaluate(FakeServerTrust()) } == nil)
        #expect(trustError { try policy.evaluate(selfSignedTrust()) }?.code == .untrustedChain)
        #expect(trustError { try policy.evaluate(FakeServerTrust(host: "other.example.com")) }?.code == .hostMismatch)
    }

    @Test("without domain name validation the host is not checked")
    func noDomainName() {
        let policy = SecurityPolicy(validatesDomainName: false)
        #expect(trustError { try policy.evaluate(FakeServerTrust(host: "other.example.com")) } == nil)
    }

    @Test("allowing invalid certificates without pinning trusts anything, once the domain name is not validated either")
    func allowsInvalid() {
        let policy = SecurityPolicy(allowsInvalidCertificates: true, validatesDomainName: false)
        #expect(policy.evaluator is DangerouslyDisabledTrustEvaluator)
        #expect(trustError { try policy.evaluate(selfSignedTrust()) } == nil)
    }

    @Test("allowing invalid certificates while validating the domain name, without pinning, fails every evaluation")
    func allowsInvalidButValidatesDomainName() {
        let policy = SecurityPolicy(allowsInvalidCertificates: true)
        let error = trustError { try policy.evaluate(FakeServerTrust()) }
        #expect(error?.code == .validationFailed)
        #expect(error?.host == "images.example.com")
        #expect(error?.message.contains("needs pinning") == true)
    }

    @Test("certificate pinning: a valid chain with a pinned certificate")
    func certificatePinning() {
        let policy = SecurityPolicy.pinningCertificates([TestPKI.intermediate.certificate])
        #expect(policy.pinning == .certificate)
        let evaluator = policy.evaluator as? CertificatePinningTrustEvaluator
        #expect(evaluator?.scope == .anyInChain)
        #expect(evaluator?.performsDefaultValidation == true)
        #expect(evaluator?.validateHost == true)
        #expect(trustError { try policy.evaluate(FakeServerTrust()) } == nil)
        #expect(trustError { try policy.evaluate(FakeServerTrust(host: "other.example.com")) }?.code == .hostMismatch)
        #expect(
            trustError { try SecurityPolicy.pinningCertificates([TestPKI.rekeyedLeaf.certificate]).evaluate(FakeServerTrust()) }?.code
                == .pinMismatch)
        // A pinned self-signed certificate is its own anchor.
        #expect(trustError { try SecurityPolicy.pinningCertificates([TestPKI.selfSigned.certificate]).evaluate(selfSignedTrust()) } == nil)
    }

    @Test("public-key pinning: a valid chain with a pinned key")
    func publicKeyPinning() {
        let policy = SecurityPolicy.pinningPublicKeys(of: [TestPKI.leaf.certificate])
        #expect(policy.pinning == .publicKey)
        let evaluator = policy.evaluator as? PublicKeyPinningTrustEvaluator
        #expect(evaluator?.pins == [PublicKeyPin(publicKeyOf: TestPKI.leaf.certificate)])
        #expect(evaluator?.performsDefaultValidation == true)
        #expect(trustError { try policy.evaluate(FakeServerTrust(presenting: [TestPKI.renewedLeaf, TestPKI.intermediate])) } == nil)
        #expect(
            trustError { try policy.evaluate(FakeServerTrust(presenting: [TestPKI.rekeyedLeaf, TestPKI.intermediate])) }?.code
                == .pinMismatch)
    }

    @Test(
        "allowing invalid certificates skips chain validation, but the pin must still match",
        arguments: [SecurityPolicy.PinningMode.certificate, .publicKey])
    func allowsInvalidWithPins(_ mode: SecurityPolicy.PinningMode) {
        let policy = SecurityPolicy(pinning: mode, pinnedCertificates: [TestPKI.selfSigned.certificate], allowsInvalidCertificates: true)
        let trust = FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned])
        #expect(trustError { try policy.evaluate(trust) } == nil)
        #expect(trust.validations.isEmpty)
        // Another self-signed server is refused.
        #expect(
            trustError { try policy.evaluate(FakeServerTrust(host: "dev.local", presenting: [TestPKI.privateRoot])) }?.code == .pinMismatch)
    }

    @Test(
        "pinning with no pinned certificate fails every evaluation with pinMismatch",
        arguments: [SecurityPolicy.PinningMode.certificate, .publicKey])
    func pinningNothing(_ mode: SecurityPolicy.PinningMode) {
        for allowsInvalid in [false, true] {
            let policy = SecurityPolicy(pinning: mode, allowsInvalidCertificates: allowsInvalid)
            let trust = FakeServerTrust()
            let error = trustError { try policy.evaluate(trust) }
            #expect(error?.code == .pinMismatch)
            #expect(error?.host == "images.example.com")
            #expect(trust.validations.isEmpty)
        }
    }

    @Test("pinned certificates are ignored without a pinning mode")
    func pinsIgnoredWithoutPinning() {
        let policy = SecurityPolicy(pinning: .none, pinnedCertificates: [TestPKI.rekeyedLeaf.certificate])
        #expect(trustError { try policy.evaluate(FakeServerTrust()) } == nil)
    }

    @Test("a trust manager applying the policy to hosts, every other host refused")
    func trustManager() throws {
        let policy = SecurityPolicy.pinningCertificates([TestPKI.leaf.certificate])
        let manager = policy.trustManager(forHosts: ["images.example.com", "IMAGES.example.com", "*.cdn.example.com"])
        let evaluator = try #require(try manager.evaluator(forHost: "images.example.com"))
        #expect(trustError { try evaluator.evaluate(FakeServerTrust()) } == nil)
        #expect(try manager.evaluator(forHost: "a.cdn.example.com") != nil)
        #expect(throws: ServerTrustError.self) { try manager.evaluator(forHost: "other.org") }
        let lenient = policy.trustManager(forHosts: ["images.example.com"], allHostsMustBeEvaluated: false)
        #expect(try lenient.evaluator(forHost: "other.org") == nil)
    }

    @Test("AllHostsTrustPolicy gives its one evaluator for every host, named or not")
    func allHosts() throws {
        let policy = AllHostsTrustPolicy(SecurityPolicy.pinningCertificates([TestPKI.selfSigned.certificate]))
        for host in ["dev.local", "images.example.com", "127.0.0.1"] {
            let evaluator = try #require(try policy.evaluator(forHost: host))
            #expect(trustError { try evaluator.evaluate(selfSignedTrust()) } == nil)
            #expect(trustError { try evaluator.evaluate(FakeServerTrust()) }?.code == .pinMismatch)
        }
    }
}
