import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// The promises a user relies on without testing them, checked through the whole
/// pipeline against real servers.
@Suite("Security: what the pipeline never does")
struct SecurityCheckTests {
    @Test("credentials and Authorization never reach another host after a redirect")
    func credentialsStayHome() async throws {
        try await withServedImages { other in
            try await withServedImages { served in
                let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
                var context = ImageLoadContext()
                context.credential = Credential(user: "ann", password: "secret")
                context.headers = ["Authorization": "Bearer token-for-the-first-host"]
                let request = ImageRequest(url: redirect(from: served.server, to: other.url("photo.jpg")), context: context)
                let image = try await pipeline.manager.image(for: request)
                #expect(image.width == 160, "the redirect is followed")
                #expect(served.server.requests.first?.header("Authorization") == "Bearer token-for-the-first-host")
                #expect(other.server.requests.count == 1)
                #expect(other.server.requests.allSatisfy { $0.header("Authorization") == nil })
            }
        }
    }

    @Test("an https page redirecting to http is refused; the http server sees nothing")
    func noDowngrade() async throws {
        let ca = try TestCertificateAuthority()
        try await withServedImages { plain in
            try await withServedImages(.init(tls: ca.issue())) { secure in
                let pipeline = InspectablePipeline(cacheDirectory: secure.cacheDirectory) {
                    $0.transport.trustPolicy = ServerTrustManager(evaluators: [
                        "127.0.0.1": AnchoredTrustEvaluator(anchors: [Certificate(derBytes: ca.certificateDER)])
                    ])
                }
                let request = ImageRequest(url: redirect(from: secure.server, to: plain.url("photo.jpg")))
                let error = await pipeline.failure(request)
                #expect(error?.transport?.code == .insecureRedirect, "\(String(describing: error))")
                #expect(plain.server.requests.isEmpty)
                try await pipeline.expectNothingLeft(after: request)
            }
        }
    }

    @Test("an http redirect to a file: URL is never followed, even to a real image")
    func noFileFromHTTP() async throws {
        let local = try TemporaryDirectory()
        let file = local.url.appendingPathComponent("secret.jpg")
        try HostileImages.photo.write(to: file)
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
            for target in [file, URL(string: "file:///etc/passwd")!] {
                let request = ImageRequest(url: redirect(from: served.server, to: target))
                let error = await pipeline.failure(request)
                let code = error?.transport?.code
                #expect(code == .badRedirect || code == .insecureRedirect, "\(target): \(String(describing: error))")
                try await pipeline.expectNothingLeft(after: request)
            }
            // The same file loads when asked for directly, under a URL policy that allows
            // file: (the default allows http and https only): the refusal is the redirect's.
            let direct = try await pipeline.manager.image(for: ImageRequest(url: file, context: .init(urlPolicy: .unrestricted)))
            #expect(direct.width == 160)
        }
    }

    @Test("no cache key, however hostile, writes outside the cache directory")
    func keysStayInside() async throws {
        let hostile = [
            "../../escaped", "/etc/passwd", "../", ".", "..", "a/../../b", "~root/.ssh/authorized_keys",
            "with\u{0}nul", String(repeating: "long/", count: 2_000), "ünïcødé/..\\..\\windows", "",
        ]
        let outer = try TemporaryDirectory()
        let cacheDirectory = outer.url.appendingPathComponent("cache")
        try await withServedImages { served in
            for key in hostile {
                // The key filter decides the disk key: here, the hostile string itself.
                let pipeline = InspectablePipeline(cacheDirectory: cacheDirectory) { $0.manager.cacheKeyFilter = { _ in key } }
                let image = try await pipeline.manager.image(for: ImageRequest(url: served.url("photo.jpg"), options: .waitForCacheStore))
                #expect(image.width == 160)
                #expect(
                    await pipeline.disk?.response(forKey: CacheKey(key))?.data == HostileImages.photo,
                    "stored and found under \(key.prefix(40))")
            }
        }
        // The only thing in the outer folder is the cache directory, and every file is
        // a regular file inside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: outer.path) == ["cache"])
        let enumerator = try #require(FileManager.default.enumerator(at: cacheDirectory, includingPropertiesForKeys: [.isSymbolicLinkKey]))
        var files = 0
        for case let url as URL in enumerator {
            #expect(url.resolvingSymlinksInPath().path.hasPrefix(cacheDirectory.resolvingSymlinksInPath().path))
            #expect(try url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink != true)
            files += 1
        }
        #expect(files >= hostile.count)
    }

    @Test("an invalid certificate is accepted only by the load that opts in, and the opt-in does not carry over")
    func invalidCertificateOptIn() async throws {
        try await withServedImages(.init(tls: TestCertificateAuthority.selfSigned())) { served in
            let pipeline = InspectablePipeline(cacheDirectory: nil)
            let plain = ImageRequest(url: served.url("photo.jpg"))
            #expect(await pipeline.failure(plain)?.transport?.trustFailure?.code == .untrustedChain)
            #expect(served.server.requests.isEmpty)

            let optedIn = ImageRequest(url: served.url("badge.png"), options: .allowInvalidCertificates)
            let image = try await pipeline.manager.image(for: optedIn)
            #expect(image.width == 40)

            // A later load without the opt-in, on the same transport, is refused again
            // (no connection or session that trusted the server is reused for it).
            let after = ImageRequest(url: served.url("animation.gif"))
            #expect(await pipeline.failure(after)?.transport?.trustFailure?.code == .untrustedChain)
            #expect(served.hits("/files/animation.gif") == 0)
        }
    }
}
