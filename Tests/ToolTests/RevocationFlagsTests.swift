import Foundation
import Testing
import WebImageTestSupport

/// `webimage fetch --crl-file` and `--require-ocsp` against nginx stapling OCSP responses
/// made with `openssl` at test time.
@Suite(
    "webimage fetch: revocation flags",
    .enabled(if: RevocationPKI.isAvailable, Comment(rawValue: RevocationPKI.missingMessage ?? "")))
struct RevocationFlagsTests {
    private func withStaplingServer(
        _ name: String, stapling: String?, _ body: (RevocationPKI, StaplingServer) throws -> Void
    ) throws {
        let pki = try RevocationPKI()
        let files = pki.url("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        _ = try DecodeCommandTests.makeInputs(in: files)
        let server = try StaplingServer(
            chain: pki.url("\(name).chain.pem"), key: pki.url("\(name).key"), stapling: stapling.map(pki.url), files: files)
        defer { server.stop() }
        try body(pki, server)
    }

    private func fetch(_ server: StaplingServer, _ pki: RevocationPKI, _ flags: [String]) throws -> WebImageProgram.Run {
        try WebImageProgram.run(
            ["fetch", "--json", "--no-disk-cache", "--ca-file", pki.url("root/ca.pem").path] + flags + [
                server.url("icon.png").absoluteString
            ])
    }

    @Test("--require-ocsp refuses a revoked stapled certificate before any request, and loads a good one")
    func requireOCSP() throws {
        try withStaplingServer("revoked", stapling: "revoked.ocsp.der") { pki, server in
            let revoked = try fetch(server, pki, ["--require-ocsp"])
            #expect(revoked.status != 0)
            #expect(try TrustFlagsTests.error(revoked).contains("revoked"), "\(revoked.output)")
            server.stop()  // the access log is complete once nginx has exited
            #expect(server.requests.isEmpty)
        }
        try withStaplingServer("good", stapling: "good.ocsp.der") { pki, server in
            let good = try fetch(server, pki, ["--require-ocsp"])
            #expect(good.status == 0, "\(good.output) \(good.errors)")
            #expect(try TrustFlagsTests.source(good) == "network")
        }
        try withStaplingServer("good", stapling: nil) { pki, server in
            let silent = try fetch(server, pki, ["--require-ocsp"])
            #expect(silent.status != 0)
            #expect(try fetch(server, pki, []).status == 0, "without the flag no staple is needed")
            server.stop()
            #expect(server.requests.count == 1, "only the fetch without the flag reached the server")
        }
    }

    @Test("--crl-file refuses a revoked certificate; --crl-whole-chain catches a revoked intermediate")
    func revocationLists() throws {
        try withStaplingServer("revoked", stapling: nil) { pki, server in
            let revoked = try fetch(server, pki, ["--crl-file", pki.url("inter.crl.pem").path])
            #expect(revoked.status != 0)
            #expect(try TrustFlagsTests.error(revoked).contains("revoked"))
            server.stop()
            #expect(server.requests.isEmpty)
        }
        try withStaplingServer("underbad", stapling: nil) { pki, server in
            let lists = ["--crl-file", pki.url("root.crl.pem").path, "--crl-file", pki.url("badinter.crl.pem").path]
            #expect(try fetch(server, pki, lists).status == 0)
            let chain = try fetch(server, pki, lists + ["--crl-whole-chain"])
            #expect(chain.status != 0)
            #expect(try TrustFlagsTests.error(chain).contains("Revoked Intermediate"))
        }
    }

    @Test("an unreadable --crl-file, or revocation with --allow-invalid-certificates, is refused before any work")
    func validation() throws {
        let missing = try WebImageProgram.run(["fetch", "--crl-file", "/nonexistent/ca.crl", "https://127.0.0.1:9/a.png"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("--crl-file"))
        let both = try WebImageProgram.run(["fetch", "--require-ocsp", "--allow-invalid-certificates", "https://127.0.0.1:9/a.png"])
        #expect(both.status != 0)
        #expect(both.errors.contains("contradict"))
    }
}
