import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@Suite("A reply that is not HTTP is a malformedResponse that says what was wrong", .timeLimit(.minutes(2)))
struct MalformedResponseTests {
    private func error(for reply: String, _ configure: (inout TransportRequest) -> Void = { _ in }) async throws -> TransportError? {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/hostile/\(reply)"))
            configure(&request)
            return await transferError(CurlTransport(), request)
        }
    }

    @Test(
        "a status line that is not HTTP/1.x or 2 is malformedResponse, not invalidURL",
        arguments: ["garbage-status-line", "http09", "random-bytes", "http99"])
    func statusLine(reply: String) async throws {
        let error = try await error(for: reply)
        #expect(error?.code == .malformedResponse, "\(String(describing: error))")
        #expect(error?.message.contains("status line") == true, "\(String(describing: error))")
        #expect((error?.underlyingError as? CurlError)?.code == 1)  // CURLE_UNSUPPORTED_PROTOCOL
    }

    @Test(
        "broken chunked encoding is malformedResponse, not connectionReset, and keeps the head",
        arguments: ["chunk-size-not-hex", "chunk-size-negative", "chunk-size-overflow", "chunk-data-overrun", "chunk-missing-crlf"])
    func chunkedEncoding(reply: String) async throws {
        let error = try await error(for: reply)
        #expect(error?.code == .malformedResponse, "\(String(describing: error))")
        #expect(error?.message.contains("chunked encoding") == true, "\(String(describing: error))")
        #expect(error?.response?.statusCode == 200)
        #expect(error?.bytesReceived != nil)
    }

    @Test("an empty reply is malformedResponse")
    func emptyReply() async throws {
        let error = try await error(for: "empty-reply")
        #expect(error?.code == .malformedResponse, "\(String(describing: error))")
        #expect(error?.message.contains("empty reply") == true)
    }

    @Test("a 10 MB header line is malformedResponse, not out of memory")
    func hugeHeaderLine() async throws {
        let error = try await error(for: "huge-header-line")
        #expect(error?.code == .malformedResponse, "\(String(describing: error))")
        #expect(error?.message.contains("header line") == true, "\(String(describing: error))")
    }

    @Test("a Location with raw non-ASCII bytes is refused as badRedirect, with the 302 kept")
    func rawLocation() async throws {
        let error = try await error(for: "location-raw-bytes")
        #expect(error?.code == .badRedirect, "\(String(describing: error))")
        #expect(error?.message.contains("non-ASCII") == true)
        #expect(error?.response?.statusCode == 302)
    }

    @Test("endless chunk-extension bytes keep the stall timer fed: the transfer times out, it does not stall")
    func chunkExtensionFlood() async throws {
        // The stall limit is far above any pause of a busy server (the thread sanitizer
        // slows it several times); the whole-transfer budget ends the flood first.
        let error = try await error(for: "chunk-extension-flood?ms=8000") { request in
            request.timeouts = .init(connect: .seconds(10), total: .seconds(4), stall: .seconds(2))
        }
        #expect(error?.code == .timedOut, "\(String(describing: error))")
    }
}

@Suite("A failure after a response keeps the response", .timeLimit(.minutes(2)))
struct FailureKeepsResponseTests {
    @Test("a body cut off by a reset keeps the status, headers and bytes received")
    func resetKeepsHead() async throws {
        try await withServer { server in
            let error = await transferError(CurlTransport(), TransportRequest(url: server.url("/reset?bytes=100000&after=20000")))
            #expect(error?.code == .connectionReset)
            #expect(error?.response?.statusCode == 200)
            #expect(error?.response?.headers["Content-Length"] == "100000")
            #expect(error?.bytesReceived ?? 0 > 0)
        }
    }

    @Test("a stall after the head keeps the status and bytes received")
    func stallKeepsHead() async throws {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/stall?bytes=100000&after=1000"))
            request.timeouts = .init(connect: .seconds(10), total: .seconds(60), stall: .milliseconds(500))
            let error = await transferError(CurlTransport(), request)
            #expect(error?.code == .stalled)
            #expect(error?.response?.statusCode == 200)
            #expect(error?.bytesReceived == 1000)
        }
    }

    @Test("an HTTP error status keeps the response, with no body bytes counted")
    func statusKeepsHead() async throws {
        try await withServer { server in
            let error = await transferError(CurlTransport(), TransportRequest(url: server.url("/status/404")))
            #expect(error?.code == .httpStatus)
            #expect(error?.statusCode == 404)
            #expect(error?.bytesReceived == 0)
        }
    }
}
