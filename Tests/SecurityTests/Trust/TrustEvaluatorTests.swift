import Foundation
import Testing
import WebImageCore
import WebImageSecurity

@Suite("DefaultTrustEvaluator: the system's authorities and the host name")
struct DefaultTrustEvaluatorTests {
    @Test("a chain to a system authority, for the host, is trusted")
    func trusted() {
        let trust = FakeServerTrust()
        #expect(trustError { try DefaultTrustEvaluator().evaluate(trust) } == nil)
        #expect(trust.validations.count == 1)
        #expect(trust.validations.first?.anchors == .system)
        #expect(trust.validations.first?.host == "images.example.com")
    }

    @Test("validation errors pass through, with the host set")
    func failures() {
        let selfSigned = trustError {
            try DefaultTrustEvaluator().evaluate(FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned]))
        }
        #expect(selfSigned?.code == .untrustedChain)
        #expect(selfSigned?.host == "dev.local")
        let wrongHost = trustError { try DefaultTrustEvaluator().evaluate(FakeServerTrust(host: "other.example.com")) }
        #expect(wrongHost?.code == .hostMismatch)
        #expect(wrongHost?.host == "other.example.com")
        let expired = trustError {
            try DefaultTrustEvaluator().evaluate(FakeServerTrust(presenting: [TestPKI.expiredLeaf, TestPKI.intermediate]))
        }
        #expect(expired?.code == .expired)
    }

    @Test("a host the trust already named is kept")
    func keepsTheTrustsHost() {
        final class NamingTrust: ServerTrust {
            let host = "images.example.com"
            let port = 443
            let certificates = TestPKI.chain
            func validate(anchors: TrustAnchors, host: String?) -> ServerTrustError? {
                ServerTrustError(.validationFailed, "OpenSSL said no", host: "as-named-by-the-trust")
            }
            func publicKeySHA256(of certificate: Certificate) -> [UInt8]? { nil }
        }
        #expect(trustError { try DefaultTrustEvaluator().evaluate(NamingTrust()) }?.host == "as-named-by-the-trust")
    }

    @Test("without host validation, the host is not passed to validate")
    func withoutHost() {
        let trust = FakeServerTrust(host: "other.example.com")
        #expect(trustError { try DefaultTrustEvaluator(validateHost: false).evaluate(trust) } == nil)
        #expect(trust.validations.first?.host == nil)
    }
}

@Suite("AnchoredTrustEvaluator: your own authorities")
struct AnchoredTrustEvaluatorTests {
    @Test("custom anchors replace the system's")
    func customOnly() {
        let evaluator = AnchoredTrustEvaluator(anchors: [TestPKI.privateRoot.certificate])
        let trust = FakeServerTrust(host: "intranet.example", presenting: [TestPKI.privateLeaf])
        #expect(trustError { try evaluator.evaluate(trust) } == nil)
        #expect(trust.validations.first?.anchors == .custom([TestPKI.privateRoot.certificate]))
        #expect(trust.validations.first?.host == "intranet.example")
        // A server of a public authority is not trusted any more.
        #expect(trustError { try evaluator.evaluate(FakeServerTrust()) }?.code == .untrustedChain)
    }

    @Test("with includesSystemAnchors, both are trusted")
    func customAndSystem() {
        let evaluator = AnchoredTrustEvaluator(anchors: [TestPKI.privateRoot.certificate], includesSystemAnchors: true)
        #expect(evaluator.trustAnchors == .systemAnd([TestPKI.privateRoot.certificate]))
        #expect(trustError { try evaluator.evaluate(FakeServerTrust()) } == nil)
        #expect(trustError { try evaluator.evaluate(FakeServerTrust(host: "intranet.example", presenting: [TestPKI.privateLeaf])) } == nil)
    }

    @Test("a self-signed server certificate as its own anchor is trusted, still for its host only")
    func selfSigned() {
        let evaluator = AnchoredTrustEvaluator(anchors: [TestPKI.selfSigned.certificate])
        #expect(trustError { try evaluator.evaluate(FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned])) } == nil)
        let wrongHost = trustError { try evaluator.evaluate(FakeServerTrust(host: "192.168.1.9", presenting: [TestPKI.selfSigned])) }
        #expect(wrongHost?.code == .hostMismatch)
        #expect(wrongHost?.host == "192.168.1.9")
        let lenient = AnchoredTrustEvaluator(anchors: [TestPKI.selfSigned.certificate], validateHost: false)
        #expect(trustError { try lenient.evaluate(FakeServerTrust(host: "192.168.1.9", presenting: [TestPKI.selfSigned])) } == nil)
    }

    @Test("no anchors and no system anchors trusts nothing, without asking the trust")
    func nothingToTrust() {
        let trust = FakeServerTrust()
        let error = trustError { try AnchoredTrustEvaluator(anchors: []).evaluate(trust) }
        #expect(error?.code == .untrustedChain)
        #expect(error?.host == "images.example.com")
        #expect(trust.validations.isEmpty)
    }

    @Test("anchors from a PEM text, and from PEM and DER files")
    func loading() throws {
        let pem = PEM.certificates([TestPKI.privateRoot.certificate, TestPKI.selfSigned.certificate])
        #expect(try AnchoredTrustEvaluator(pem: pem).anchors == [TestPKI.privateRoot.certificate, TestPKI.selfSigned.certificate])

        let directory = try TemporaryDirectory()
        let pemFile = try directory.write("roots.pem", Array(pem.utf8))
        let derFile = try directory.write("root.der", TestPKI.systemRoot.certificate.derBytes)
        let evaluator = try AnchoredTrustEvaluator(contentsOf: [pemFile, derFile])
        #expect(evaluator.anchors == [TestPKI.privateRoot.certificate, TestPKI.selfSigned.certificate, TestPKI.systemRoot.certificate])
        #expect(trustError { try evaluator.evaluate(FakeServerTrust(host: "intranet.example", presenting: [TestPKI.privateLeaf])) } == nil)

        #expect(throws: ServerTrustError.self) { try AnchoredTrustEvaluator(pem: "no certificate here") }
        #expect(throws: ServerTrustError.self) { try AnchoredTrustEvaluator(contentsOf: [directory.url.appending(path: "missing.pem")]) }
    }
}

@Suite("CompositeTrustEvaluator: all must agree")
struct CompositeTrustEvaluatorTests {
    @Test("every evaluator runs, in order, when all pass")
    func allPass() {
        let log = RecordingEvaluator.Log()
        let composite = CompositeTrustEvaluator([
            RecordingEvaluator("a", log: log), RecordingEvaluator("b", log: log), RecordingEvaluator("c", log: log),
        ])
        #expect(trustError { try composite.evaluate(FakeServerTrust()) } == nil)
        #expect(log.names == ["a", "b", "c"])
    }

    @Test("the first refusal is thrown, with the host, and the rest do not run")
    func firstErrorWins() {
        let log = RecordingEvaluator.Log()
        let composite = CompositeTrustEvaluator([
            RecordingEvaluator("a", log: log),
            RecordingEvaluator("b", failure: ServerTrustError(.pinMismatch, "first"), log: log),
            RecordingEvaluator("c", failure: ServerTrustError(.expired, "second"), log: log),
            RecordingEvaluator("d", log: log),
        ])
        let error = trustError { try composite.evaluate(FakeServerTrust()) }
        #expect(error == ServerTrustError(.pinMismatch, "first", host: "images.example.com"))
        #expect(log.names == ["a", "b"])
    }

    @Test("default validation and a pin together: either failing refuses the server")
    func realEvaluators() {
        let composite = CompositeTrustEvaluator([
            DefaultTrustEvaluator(),
            PublicKeyPinningTrustEvaluator(pins: [PublicKeyPin(publicKeyOf: TestPKI.leaf.certificate)], performsDefaultValidation: false),
        ])
        #expect(trustError { try composite.evaluate(FakeServerTrust()) } == nil)
        #expect(
            trustError { try composite.evaluate(FakeServerTrust(presenting: [TestPKI.rekeyedLeaf, TestPKI.intermediate])) }?.code
                == .pinMismatch)
        #expect(trustError { try composite.evaluate(FakeServerTrust(host: "other.example.com")) }?.code == .hostMismatch)
    }

    @Test("an empty composite trusts every server")
    func empty() {
        #expect(trustError { try CompositeTrustEvaluator([]).evaluate(FakeServerTrust(presenting: [TestPKI.selfSigned])) } == nil)
    }
}

@Suite("DangerouslyDisabledTrustEvaluator: trusts anything")
struct DangerouslyDisabledTrustEvaluatorTests {
    @Test("any chain for any host is trusted, and nothing is validated")
    func trustsAnything() {
        let trusts = [
            FakeServerTrust(host: "dev.local", presenting: [TestPKI.selfSigned]),
            FakeServerTrust(host: "wrong.example", presenting: [TestPKI.expiredLeaf]),
            FakeServerTrust(certificates: []),
        ]
        for trust in trusts {
            #expect(trustError { try DangerouslyDisabledTrustEvaluator().evaluate(trust) } == nil)
            #expect(trust.validations.isEmpty)
        }
    }
}
