import Foundation
import Testing
import WebImageTestServer
import WebImageTestSupport

/// The hostile routes write what they say, byte for byte, as curl sees it.
@Suite("LoopbackServer's hostile routes, as curl sees them")
struct HostileRouteTests {
    @Test("an HTTP/0.9 reply and a garbage status line arrive as raw bytes")
    func rawBytes() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let http09 = try await curl(["--http0.9", server.url("/hostile/http09").absoluteString], in: directory)
        #expect(http09.output == "<html><body>hello</body></html>\n", "\(http09.errorOutput)")
        let garbage = try await curl(["--http0.9", server.url("/hostile/garbage-status-line").absoluteString], in: directory)
        #expect(garbage.output == "GARBAGE LINE\r\nContent-Length: 5\r\n\r\nhello", "\(garbage.errorOutput)")
        // Without --http0.9, curl refuses both (CURLE_UNSUPPORTED_PROTOCOL).
        let refused = try await curl([server.url("/hostile/http09").absoluteString], in: directory)
        #expect(refused.exitCode == 1)
    }

    @Test("broken chunk sizes, an empty reply and a 10 MB header line are refused by curl too")
    func curlRefusesThem() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        for name in ["chunk-size-not-hex", "chunk-size-negative", "chunk-size-overflow", "chunk-data-overrun", "chunk-missing-crlf"] {
            let result = try await curl(["-o", "/dev/null", server.url("/hostile/\(name)").absoluteString], in: directory)
            #expect(result.exitCode == 56, "\(name): \(result.errorOutput)")  // CURLE_RECV_ERROR
        }
        let empty = try await curl(["-o", "/dev/null", server.url("/hostile/empty-reply").absoluteString], in: directory)
        #expect(empty.exitCode == 52)  // CURLE_GOT_NOTHING
        let huge = try await curl(["-o", "/dev/null", server.url("/hostile/huge-header-line").absoluteString], in: directory)
        #expect(huge.exitCode != 0)
    }

    @Test("the raw Location bytes and /html's content type are as sent")
    func locationAndHTML() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        let redirect = try await curl(
            ["-D", "-", "-o", "/dev/null", server.url("/hostile/location-raw-bytes").absoluteString], in: directory)
        #expect(redirect.outputBytes.starts(with: Array("HTTP/1.1 302 Found\r\nLocation: /caf".utf8) + [0xE9, 0xFF]))
        let html = try await curl(["-w", "%{content_type}", "-o", "/dev/null", server.url("/html").absoluteString], in: directory)
        #expect(html.output == "text/html; charset=utf-8")
        #expect(server.requests.map(\.path) == ["/hostile/location-raw-bytes", "/html"])
    }
}
