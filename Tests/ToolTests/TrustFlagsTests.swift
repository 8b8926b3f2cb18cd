import Foundation
import Testing

/// The trust flags of `fetch` against `serve --tls` (HTTPS with a certificate from a CA
/// made when the server starts).
@Suite("webimage fetch: trust flags")
struct TrustFlagsTests {
    static func source(_ run: WebImageProgram.Run) throws -> String? {
        try DecodeCommandTests.json(try #require(run.lines.first))["source"] as? String
    }

    static func error(_ run: WebImageProgram.Run) throws -> String {
        try DecodeCommandTests.json(try #require(run.lines.first))["error"] as? String ?? ""
    }

    @Test("without a flag the test CA is not trusted; --ca-file trusts it; pins narrow it; the dangerous flag trusts anything")
    func trust() throws {
        try withServedInputs(arguments: ["--tls"]) { server, _ in
            #expect(server.baseURL.scheme == "https")
            let caFile = try #require(server.value(of: "CA file"))
            let pin = try #require(server.value(of: "public-key pin"))
            #expect(pin.hasPrefix("sha256//"))
            let url = server.url("icon.png")
            func fetch(_ flags: [String]) throws -> WebImageProgram.Run {
                try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + flags + [url])
            }

            let untrusted = try fetch([])
            #expect(untrusted.status != 0)
            #expect(try Self.error(untrusted).contains("serverTrustFailed"))

            let anchored = try fetch(["--ca-file", caFile])
            #expect(anchored.status == 0, "\(anchored.output)")
            #expect(try Self.source(anchored) == "network")

            let pinned = try fetch(["--ca-file", caFile, "--pin-public-key", pin])
            #expect(pinned.status == 0, "\(pinned.output)")

            let wrongPin = try fetch(["--ca-file", caFile, "--pin-public-key", "sha256//" + Data(count: 32).base64EncodedString()])
            #expect(wrongPin.status != 0)
            #expect(try Self.error(wrongPin).contains("does not match the pinned public key"))

            let anything = try fetch(["--allow-invalid-certificates"])
            #expect(anything.status == 0, "\(anything.output)")
            #expect(try Self.source(anything) == "network")

            let pinStillChecked = try fetch([
                "--allow-invalid-certificates", "--pin-public-key", "sha256//" + Data(count: 32).base64EncodedString(),
            ])
            #expect(pinStillChecked.status != 0, "skipping validation does not skip the pin")
        }
    }

    @Test("contradictory or unreadable trust flags are refused before any work")
    func validation() throws {
        let both = try WebImageProgram.run(["fetch", "--allow-invalid-certificates", "--ca-file", "/dev/null", "https://127.0.0.1:9/a.png"])
        #expect(both.status != 0)
        #expect(both.errors.contains("contradict"))
        let missing = try WebImageProgram.run(["fetch", "--ca-file", "/nonexistent/ca.pem", "https://127.0.0.1:9/a.png"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("--ca-file"))
        #expect(missing.output.isEmpty, "nothing was loaded")
    }
}
