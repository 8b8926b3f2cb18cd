import Foundation
import Testing
import WebImageTestServer
import WebImageTestSupport

/// The loopback server, exercised with the curl program: what a real client sees.
@Suite("LoopbackServer, as curl sees it", .timeLimit(.minutes(2)))
struct LoopbackServerTests {
    @Test func plainHTTPBytesArePattern() async throws {
        let server = try await LoopbackServer.start()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let result = try await curl([server.url("/bytes/300000").absoluteString], in: directory)
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.outputBytes == pattern(300_000))
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")

        let empty = try await curl(
            ["-w", "%{http_code} %{size_download}", "-o", "/dev/null", server.url("/bytes/0").absoluteString], in: directory)
        #expect(empty.output == "200 0")

        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.first?.method == "GET")
        #expect(requests.first?.path == "/bytes/300000")
        #expect(requests.first?.httpVersion == "HTTP/1.1")
        #expect(requests.first?.header("USER-AGENT")?.hasPrefix("curl/") == true)
        try await server.shutdown()
        try await server.shutdown()
    }

    @Test func requestsAreRecordedWithConnectionIDs() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        // One curl run, two URLs: the second reuses the kept-alive connection.
        let first = try await curl(
            ["-o", "/dev/null", "-o", "/dev/null", server.url("/bytes/10").absoluteString, server.url("/status/204?x=1").absoluteString],
            in: directory
        )
        #expect(first.exitCode == 0, "\(first.errorOutput)")
        // A second run opens its own connection.
        let second = try await curl(["-o", "/dev/null", server.url("/headers").absoluteString], in: directory)
        #expect(second.exitCode == 0)

        let requests = server.requests
        try #require(requests.count == 3)
        #expect(requests.map(\.uri) == ["/bytes/10", "/status/204?x=1", "/headers"])
        #expect(requests[1].path == "/status/204")
        #expect(requests[0].connectionID == requests[1].connectionID)
        #expect(requests[2].connectionID != requests[0].connectionID)
        #expect(server.connectionCount == 2)

        server.resetRecords()
        #expect(server.requests.isEmpty)
        #expect(server.connectionCount == 0)
    }

    @Test func httpsWithTheTestCAOverHTTP2() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await LoopbackServer.start(.init(tls: try authority.issue()))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try directory.write(authority.certificatePEM, to: "ca.pem")
        #expect(server.baseURL.absoluteString == "https://127.0.0.1:\(server.port)")

        let body = directory.path("body")
        let result = try await curl(
            [
                "--cacert", caFile, "-w", "%{http_version}", "-o", body, server.url("/bytes/100000").absoluteString,
                "-o", "/dev/null", server.url("/status/201").absoluteString,
            ],
            in: directory
        )
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.output == "22")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: body))) == pattern(100_000))

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests.allSatisfy { $0.httpVersion == "HTTP/2" })
        #expect(requests[0].connectionID == requests[1].connectionID)
        #expect(server.tlsHandshakeFailures == 0)

        // The same over HTTP/1.1 when asked.
        let http1 = try await curl(
            ["--cacert", caFile, "--http1.1", "-w", "%{http_version}", "-o", "/dev/null", server.url("/bytes/10").absoluteString],
            in: directory)
        #expect(http1.output == "1.1")
        #expect(server.requests.last?.httpVersion == "HTTP/1.1")

        // The "localhost" name of the default leaf is good too.
        let byName = try await curl(
            ["--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code}", "https://localhost:\(server.port)/bytes/1"], in: directory)
        #expect(byName.output == "200", "\(byName.errorOutput)")
    }

    @Test func leafFromAnIntermediateCarriesTheChain() async throws {
        let root = try TestCertificateAuthority()
        let intermediate = try root.issueIntermediate()
        let identity = try intermediate.issue()
        #expect(identity.chainDER.count == 2)
        #expect(identity.chainDER[1] == intermediate.certificateDER)
        #expect(identity.certificatePEM.components(separatedBy: "BEGIN CERTIFICATE").count == 3)

        let server = try await LoopbackServer.start(.init(tls: identity))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try directory.write(root.certificatePEM, to: "root.pem")
        let result = try await curl(
            ["--cacert", caFile, "--pinnedpubkey", "sha256//" + identity.publicKeySHA256Base64, server.url("/status/200").absoluteString],
            in: directory
        )
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.output == "status 200")

        let wrongPin = try await curl(
            [
                "--cacert", caFile, "--pinnedpubkey", "sha256//" + root.issue().publicKeySHA256Base64,
                server.url("/status/200").absoluteString,
            ],
            in: directory
        )
        #expect(wrongPin.exitCode == 90)
    }

    @Test func selfSignedIdentityIsRejectedWithoutInsecure() async throws {
        let server = try await LoopbackServer.start(.init(tls: try TestCertificateAuthority.selfSigned()))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let rejected = try await curl([server.url("/bytes/10").absoluteString], in: directory)
        #expect(rejected.exitCode == 60, "\(rejected.errorOutput)")
        await server.handshakeFailuresArrived(1)
        #expect(server.tlsHandshakeFailures == 1)
        #expect(server.requests.isEmpty)

        let insecure = try await curl(
            ["-k", "-o", "/dev/null", "-w", "%{http_code}", server.url("/bytes/10").absoluteString], in: directory)
        #expect(insecure.output == "200")
        #expect(server.connectionCount == 2)
        #expect(server.tlsHandshakeFailures == 1)
    }

    @Test func basicAuth() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/basic-auth/ann/s3cret").absoluteString

        let good = try await curl(["-u", "ann:s3cret", url], in: directory)
        #expect(good.output == "authenticated ann")
        let bad = try await curl(["-u", "ann:wrong", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(bad.output == "401")
        let none = try await curl(["-D", "-", "-o", "/dev/null", url], in: directory)
        #expect(none.output.lowercased().contains("www-authenticate: basic realm=\"wi-basic\""))
    }

    @Test func digestAuth() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/digest-auth/bob/pa55word").absoluteString

        let good = try await curl(["--digest", "-u", "bob:pa55word", url], in: directory)
        #expect(good.exitCode == 0, "\(good.errorOutput)")
        #expect(good.output == "authenticated bob")
        // curl asks without credentials first, then answers the challenge.
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.header("authorization")?.hasPrefix("Digest ") == true)

        let bad = try await curl(["--digest", "-u", "bob:nope", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(bad.output == "401")
        let basicInstead = try await curl(["-u", "bob:pa55word", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(basicInstead.output == "401")
    }

    @Test func filesHaveValidatorsAndAnswer304() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write("hello, files\n", to: "hello.txt")
        try FileManager.default.createDirectory(at: root.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: root.url.appendingPathComponent("sub/a b.png"))
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        try outside.write("secret", to: "secret.txt")

        let server = try await LoopbackServer.start(.init(documentRoot: root.url))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/files/hello.txt").absoluteString

        let first = try await curl(["-D", directory.path("headers"), url], in: directory)
        #expect(first.output == "hello, files\n")
        let headers = try String(contentsOfFile: directory.path("headers"), encoding: .utf8)
        func header(_ name: String) -> String? {
            headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let etag = try #require(header("etag"))
        let lastModified = try #require(header("last-modified"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(lastModified.hasSuffix(" GMT"))
        #expect(header("cache-control") == "max-age=3600")
        #expect(header("content-type")?.hasPrefix("text/plain") == true)

        let byTag = try await curl(["-H", "If-None-Match: \(etag)", "-w", "%{http_code}", url], in: directory)
        #expect(byTag.output == "304")
        let byDate = try await curl(["-H", "If-Modified-Since: \(lastModified)", "-w", "%{http_code}", url], in: directory)
        #expect(byDate.output == "304")
        let otherTag = try await curl(["-H", "If-None-Match: \"other\"", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(otherTag.output == "200")

        let png = try await curl(
            ["-o", "/dev/null", "-w", "%{http_code} %{content_type}", server.url("/files/sub/a%20b.png").absoluteString], in: directory)
        #expect(png.output == "200 image/png")
        let head = try await curl(["-I", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(head.output == "200")

        // Climbing out of the document root is a 404, however it is spelled.
        let outsideName = "../" + outside.url.lastPathComponent + "/secret.txt"
        for path in [
            "/files/" + outsideName, "/files/%2e%2e/" + outside.url.lastPathComponent + "/secret.txt", "/files/sub/%2F..%2F..%2Fetc/passwd",
            "/files/missing.txt",
        ] {
            let result = try await curl(
                ["--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", server.url(path).absoluteString], in: directory)
            #expect(result.output == "404", "\(path)")
        }
    }

    @Test func clientCertificateIsRequired() async throws {
        let authority = try TestCertificateAuthority()
        let clientAuthority = try TestCertificateAuthority(commonName: "client CA")
        let server = try await LoopbackServer.start(
            .init(tls: try authority.issue(), clientCertificateAuthority: clientAuthority)
        )
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try directory.write(authority.certificatePEM, to: "ca.pem")
        let client = try clientAuthority.issue(commonName: "test client", forClient: true)
        let certFile = try directory.write(client.certificatePEM, to: "client.pem")
        let keyFile = try directory.write(client.privateKeyPEM, to: "client.key")
        let url = server.url("/client-cert").absoluteString

        let with = try await curl(["--cacert", caFile, "--cert", certFile, "--key", keyFile, url], in: directory)
        #expect(with.exitCode == 0, "\(with.errorOutput)")
        #expect(with.output == "test client")

        let without = try await curl(["--cacert", caFile, url], in: directory)
        #expect(without.exitCode != 0)
        #expect(without.output.isEmpty)

        // A certificate from another CA is refused too.
        let stranger = try authority.issue(commonName: "stranger", forClient: true)
        let strangerCert = try directory.write(stranger.certificatePEM, to: "stranger.pem")
        let strangerKey = try directory.write(stranger.privateKeyPEM, to: "stranger.key")
        let wrongCA = try await curl(["--cacert", caFile, "--cert", strangerCert, "--key", strangerKey, url], in: directory)
        #expect(wrongCA.exitCode != 0)
        await server.handshakeFailuresArrived(2)
        #expect(server.tlsHandshakeFailures == 2)
        #expect(server.requests.count == 1)
    }

    @Test func failuresMidBody() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let reset = try await curl(["-o", "/dev/null", server.url("/reset?bytes=100000&after=1000").absoluteString], in: directory)
        #expect([18, 56].contains(reset.exitCode), "\(reset.exitCode) \(reset.errorOutput)")

        let mismatch = try await curl(
            ["-o", "/dev/null", "-w", "%{size_download}", server.url("/length-mismatch?declared=5000&actual=1234").absoluteString],
            in: directory)
        #expect(mismatch.exitCode == 18, "\(mismatch.errorOutput)")
        #expect(mismatch.output == "1234")

        let stall = try await curl(
            ["--max-time", "1", "-o", "/dev/null", "-w", "%{size_download}", server.url("/stall?bytes=5000&after=100").absoluteString],
            in: directory)
        #expect(stall.exitCode == 28)
        #expect(stall.output == "100")

        let start = ContinuousClock.now
        let drip = try await curl([server.url("/drip?bytes=30&chunk=10&interval_ms=50").absoluteString], in: directory)
        #expect(drip.outputBytes == pattern(30))
        #expect(ContinuousClock.now - start >= .milliseconds(150))

        let slow = try await curl([server.url("/slow-first-byte?ms=200").absoluteString], in: directory)
        #expect(slow.output == "slow")
    }

    @Test func gateHoldsTheBodyUntilTheTestOpensIt() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/gate/g?bytes=5000&first=100").absoluteString

        let held = try await curl(["--max-time", "1", "-o", "/dev/null", "-w", "%{size_download}", url], in: directory)
        #expect(held.exitCode == 28)
        #expect(held.output == "100")

        async let waiting = curl([url], in: directory)
        await server.requestsArrived(2)
        server.openGate("g")
        #expect(try await waiting.outputBytes == pattern(5000))
        // Once open, a gate stays open.
        #expect(try await curl([url], in: directory).outputBytes == pattern(5000))
    }

    @Test func resetOverTLSAndHTTP2() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await LoopbackServer.start(.init(tls: try authority.issue()))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try directory.write(authority.certificatePEM, to: "ca.pem")
        let url = server.url("/reset?bytes=100000&after=1000").absoluteString

        let http2 = try await curl(["--cacert", caFile, "-o", "/dev/null", url], in: directory)
        #expect(http2.exitCode == 92 || http2.exitCode == 18 || http2.exitCode == 56, "\(http2.exitCode) \(http2.errorOutput)")
        let http1 = try await curl(["--cacert", caFile, "--http1.1", "-o", "/dev/null", url], in: directory)
        #expect([18, 56].contains(http1.exitCode), "\(http1.exitCode) \(http1.errorOutput)")
    }

    @Test func redirectsStatusGzipHeadersCookies() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let chain = try await curl(
            ["-L", "-w", " %{num_redirects} %{http_code}", server.url("/redirect/3?status=307&absolute=1").absoluteString], in: directory)
        #expect(chain.output == "redirected 3 200")
        #expect(server.requests.suffix(4).map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1", "/redirect/0"])
        let oneHop = try await curl(
            ["-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", server.url("/redirect/2?status=308").absoluteString], in: directory)
        #expect(oneHop.output == "308 \(server.baseURL.absoluteString)/redirect/1?status=308")

        let target = "/status/202".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let to = try await curl(
            ["-L", "-w", " %{http_code}", server.url("/redirect-to?url=\(target)&status=303").absoluteString], in: directory)
        #expect(to.output == "status 202 202")
        let loop = try await curl(
            ["-L", "--max-redirs", "5", "-o", "/dev/null", server.url("/redirect-loop/a").absoluteString], in: directory)
        #expect(loop.exitCode == 47)

        let status = try await curl(["-D", "-", server.url("/status/418?header=X-Test:%20yes").absoluteString], in: directory)
        #expect(status.output.hasPrefix("HTTP/1.1 418"))
        #expect(status.output.lowercased().contains("x-test: yes"))
        #expect(status.output.hasSuffix("status 418"))

        let gzip = try await curl(
            ["--compressed", "-D", directory.path("gzip-headers"), server.url("/gzip?bytes=20000").absoluteString], in: directory)
        #expect(gzip.outputBytes == pattern(20000))
        #expect(try String(contentsOfFile: directory.path("gzip-headers"), encoding: .utf8).lowercased().contains("content-encoding: gzip"))
        let identity = try await curl(
            ["-D", directory.path("identity-headers"), server.url("/gzip?bytes=2000").absoluteString], in: directory)
        #expect(identity.outputBytes == pattern(2000))
        #expect(
            !(try String(contentsOfFile: directory.path("identity-headers"), encoding: .utf8).lowercased().contains("content-encoding")))

        let headers = try await curl(["-A", "wi-agent/1", "-H", "Accept: image/png", server.url("/headers").absoluteString], in: directory)
        #expect(headers.output.contains("User-Agent: wi-agent/1\n"))
        #expect(headers.output.contains("Accept: image/png\n"))

        let jar = directory.path("jar")
        _ = try await curl(["-c", jar, server.url("/cookie/set?flavour=oat").absoluteString], in: directory)
        let echo = try await curl(["-b", jar, server.url("/cookie/echo").absoluteString], in: directory)
        #expect(echo.output == "flavour=oat")

        let missing = try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/nothing/here").absoluteString], in: directory)
        #expect(missing.output == "404")
    }

    @Test func uploadsAndConfigurationSwitches() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await LoopbackServer.start(.init(tls: try authority.issue(), http2: false, recordsRequests: false))
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = try directory.write(authority.certificatePEM, to: "ca.pem")
        let upload = try directory.write(String(repeating: "x", count: 2_000_000), to: "upload")

        // curl sends "Expect: 100-continue" before a large body and, told so, waits 30 s
        // for the answer unless the server gives it: a bound far below that, generous for
        // a loaded machine, proves the server answers. curl times itself (time_total), so
        // a test task that a busy machine runs late cannot blur the figure.
        let post = try await curl(
            [
                "--expect100-timeout", "30", "--cacert", caFile, "--data-binary", "@" + upload,
                "-w", "%{http_version} %{http_code} %{time_total}", "-o", "/dev/null", server.url("/status/201").absoluteString,
            ],
            in: directory
        )
        let fields = post.output.split(separator: " ")
        #expect(fields.prefix(2).joined(separator: " ") == "1.1 201", "\(post.errorOutput)")
        let seconds = try #require(fields.last.flatMap { Double($0) }, "curl's time_total in \(post.output)")
        #expect(seconds < 15)
        #expect(server.requests.isEmpty)
        #expect(server.connectionCount == 1)
    }
}
