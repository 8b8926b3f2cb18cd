import Foundation
import Testing

@testable import WebImageTestServer

/// The NTLM route's own parts checked against published vectors, then the route checked
/// by the curl program running the real handshake.
@Suite("NTLM route", .timeLimit(.minutes(2)))
struct NTLMRouteTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("MD4 gives RFC 1320's test vectors")
    func md4Vectors() {
        let vectors = [
            ("", "31d6cfe0d16ae931b73c59d7e0c089c0"),
            ("a", "bde52cb31de33e46245e05fbdbd6fb24"),
            ("abc", "a448017aaf21d8525fc10ae87aa6729d"),
            ("message digest", "d9130a8164549fe818874806e1c7014b"),
            ("abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "043f8582f241db351ce627e153e7f0e4"),
            (String(repeating: "1234567890", count: 8), "e33b4ddc9c38f2199c3e7b164fcc0536"),
        ]
        for (message, digest) in vectors {
            #expect(Self.hex(MD4.hash(Array(message.utf8))) == digest, "MD4(\"\(message)\")")
        }
    }

    @Test("NTOWFv1 and NTOWFv2 give MS-NLMP's vectors (4.2.2, 4.2.4)")
    func ntowfVectors() {
        #expect(Self.hex(NTLMv2Verifier.ntHash(password: "Password")) == "a4f49c406510bdcab6824ee7c30fd852")
        #expect(
            Self.hex(NTLMv2Verifier.ntlmv2Hash(user: "User", domain: "Domain", password: "Password")) == "0c868a403bfd7a93a3001ef22ef02e3f")
    }

    @Test("HMAC-MD5 gives RFC 2202's first vector")
    func hmacVector() {
        let mac = NTLMv2Verifier.hmacMD5(key: [UInt8](repeating: 0x0b, count: 16), Array("Hi There".utf8))
        #expect(Self.hex(mac) == "9294727a3638bb1c13f48ef8158bfc9d")
    }

    @Test("a malformed or truncated AUTHENTICATE reads as nil, never a crash")
    func malformedMessages() {
        #expect(NTLMMessages.authenticate([]) == nil)
        #expect(NTLMMessages.authenticate(NTLMMessages.signature + [3, 0, 0, 0]) == nil)
        var lying = NTLMMessages.signature + [3, 0, 0, 0] + [UInt8](repeating: 0, count: 60)
        lying[20] = 0xff  // an NT response longer than the message
        lying[24] = 0x10
        #expect(NTLMMessages.authenticate(lying) == nil)
        #expect(NTLMMessages.type(of: Array("NTLMSSX\0\u{1}\0\0\0".utf8)) == nil)
    }

    @Test("curl --ntlm: the right password gets 200 after three messages on one connection; a wrong one 401")
    func curlHandshake() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = server.url("/ntlm-auth/WIDOMAIN%5Cann/s3cret").absoluteString

        let good = try await curl(["--ntlm", "-u", #"WIDOMAIN\ann:s3cret"#, url], in: directory)
        #expect(good.exitCode == 0, "\(good.errorOutput)")
        #expect(good.output == "authenticated ann")
        let requests = server.requests
        #expect(requests.count == 2, "NEGOTIATE, then AUTHENTICATE")
        #expect(Set(requests.map(\.connectionID)).count == 1, "the handshake stayed on one connection")
        #expect(requests.map { Self.messageType($0.header("authorization")) } == [1, 3])

        let bad = try await curl(["--ntlm", "-u", #"WIDOMAIN\ann:wrong"#, "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(bad.output == "401")
        let otherDomain = try await curl(
            ["--ntlm", "-u", #"ELSEWHERE\ann:s3cret"#, "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(otherDomain.output == "401")
        let basicInstead = try await curl(["-u", #"WIDOMAIN\ann:s3cret"#, "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(basicInstead.output == "401")
    }

    @Test("an AUTHENTICATE on another connection than its CHALLENGE is refused")
    func challengeBelongsToItsConnection() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // curl with a fresh connection per request cannot finish the handshake.
        let url = server.url("/ntlm-auth/ann/s3cret").absoluteString
        let split = try await curl(
            ["--ntlm", "-u", "ann:s3cret", "-H", "Connection: close", "-o", "/dev/null", "-w", "%{http_code}", url], in: directory)
        #expect(split.output == "401")
    }

    /// The NTLM message type of an `Authorization: NTLM <base64>` value.
    static func messageType(_ authorization: String?) -> Int? {
        guard let authorization, authorization.hasPrefix("NTLM "),
            let bytes = Data(base64Encoded: String(authorization.dropFirst(5))), bytes.count >= 12
        else { return nil }
        return Int(bytes[bytes.startIndex + 8])
    }
}
