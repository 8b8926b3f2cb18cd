import Testing
import WebImageCore
import WebImageSecurity

@Suite("ServerTrustManager: which evaluator for which host")
struct ServerTrustManagerTests {
    /// Names the evaluator that was chosen.
    struct Named: ServerTrustEvaluating {
        let name: String
        func evaluate(_ trust: any ServerTrust) throws(ServerTrustError) {}
    }

    func chosen(_ manager: ServerTrustManager, _ host: String) throws -> String? {
        try (manager.evaluator(forHost: host) as? Named)?.name
    }

    let manager = ServerTrustManager(evaluators: [
        "images.example.com": Named(name: "exact"),
        "*.example.com": Named(name: "wildcard"),
        "special.example.com": Named(name: "special"),
        "Mixed.Case.ORG": Named(name: "mixed"),
        "127.0.0.1": Named(name: "loopback"),
        "::1": Named(name: "loopback6"),
    ])

    @Test("an exact key covers its host, whatever the case of either")
    func exact() throws {
        #expect(try chosen(manager, "images.example.com") == "exact")
        #expect(try chosen(manager, "IMAGES.Example.com") == "exact")
        #expect(try chosen(manager, "mixed.case.org") == "mixed")
    }

    @Test("a final dot and IPv6 brackets do not change the host")
    func normalization() throws {
        #expect(try chosen(manager, "images.example.com.") == "exact")
        #expect(try chosen(manager, "127.0.0.1") == "loopback")
        #expect(try chosen(manager, "[::1]") == "loopback6")
    }

    @Test("a wildcard covers exactly one label below its domain")
    func wildcard() throws {
        #expect(try chosen(manager, "cdn.example.com") == "wildcard")
        #expect(try chosen(manager, "CDN.EXAMPLE.COM") == "wildcard")
        #expect(throws: ServerTrustError.self) { try manager.evaluator(forHost: "a.cdn.example.com") }
        #expect(throws: ServerTrustError.self) { try manager.evaluator(forHost: "example.com") }
        #expect(throws: ServerTrustError.self) { try manager.evaluator(forHost: ".example.com") }
        #expect(throws: ServerTrustError.self) { try manager.evaluator(forHost: "badexample.com") }
    }

    @Test("an exact key wins over a wildcard that also covers the host")
    func exactWins() throws {
        #expect(try chosen(manager, "special.example.com") == "special")
        #expect(try chosen(manager, "images.example.com") == "exact")
    }

    @Test("a wildcard never covers an IP address")
    func wildcardAndAddresses() throws {
        let manager = ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["*.0.0.1": Named(name: "wildcard")])
        #expect(try manager.evaluator(forHost: "127.0.0.1") == nil)
    }

    @Test("a * that is not a whole first label is compared as written")
    func literalStar() throws {
        let manager = ServerTrustManager(
            allHostsMustBeEvaluated: false, evaluators: ["img*.example.com": Named(name: "star"), "*": Named(name: "all")])
        #expect(try manager.evaluator(forHost: "img1.example.com") == nil)
        #expect(try manager.evaluator(forHost: "anything") == nil)
    }

    @Test("when all hosts must be evaluated, a host no key covers fails, naming the host")
    func allHostsMustBeEvaluated() {
        #expect(manager.allHostsMustBeEvaluated)
        #expect {
            try manager.evaluator(forHost: "other.org")
        } throws: { error in
            let error = error as? ServerTrustError
            return error?.code == .noEvaluator && error?.host == "other.org"
        }
    }

    @Test("otherwise a host no key covers gets nil: the transport's default validation")
    func defaultValidation() throws {
        let lenient = ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["images.example.com": Named(name: "exact")])
        #expect(try lenient.evaluator(forHost: "other.org") == nil)
        #expect(try chosen(lenient, "images.example.com") == "exact")
    }

    @Test("with no evaluators and every host to evaluate, nothing connects")
    func empty() {
        #expect(throws: ServerTrustError.self) { try ServerTrustManager(evaluators: [:]).evaluator(forHost: "images.example.com") }
    }

    @Test("the chosen evaluator is the one given, and it evaluates")
    func chosenEvaluatorEvaluates() throws {
        let manager = ServerTrustManager(evaluators: [
            "images.example.com": CertificatePinningTrustEvaluator(certificates: [TestPKI.rekeyedLeaf.certificate])
        ])
        let evaluator = try #require(try manager.evaluator(forHost: "images.example.com"))
        #expect(throws: ServerTrustError.self) { try evaluator.evaluate(FakeServerTrust()) }
    }
}
