import CLibCurl
import Foundation
import Testing
import WebImageCore

@testable import WebImageTransport

/// libcurl's codes as errors, told apart by what else is known (connected or not, the
/// detail in libcurl's error buffer): the texts are libcurl 7.88's for the hostile
/// replies of the loopback server.
@Suite("libcurl's result codes become errors that say what happened")
struct CurlErrorMappingTests {
    let url = URL(string: "http://example.com/a.png")!

    private func error(_ code: CURLcode, _ detail: String, connected: Bool, response: TransportResponse? = nil) -> TransportError {
        CurlErrorMapping.error(
            for: code,
            .init(
                url: url, detail: detail, connected: connected, verifyResult: 0, response: response,
                bytesReceived: response == nil ? nil : 10))
    }

    @Test("an unsupported protocol is the status line once connected, the URL before")
    func unsupportedProtocol() {
        #expect(error(CURLE_UNSUPPORTED_PROTOCOL, "Received HTTP/0.9 when not allowed", connected: true).code == .malformedResponse)
        #expect(
            error(CURLE_UNSUPPORTED_PROTOCOL, "Unsupported HTTP version (9.9) in response", connected: false).code == .malformedResponse)
        #expect(error(CURLE_UNSUPPORTED_PROTOCOL, "Protocol \"gopher\" not supported", connected: false).code == .invalidURL)
    }

    @Test("a receive error about chunked encoding is malformed; any other is a reset")
    func receiveError() {
        let chunked = error(CURLE_RECV_ERROR, "Illegal or missing hexadecimal sequence in chunked-encoding", connected: true)
        #expect(chunked.code == .malformedResponse)
        #expect(chunked.message.contains("chunked encoding"))
        #expect(error(CURLE_RECV_ERROR, "Connection reset by peer", connected: true).code == .connectionReset)
    }

    @Test("an empty reply is malformed; out of memory once connected is a header line over libcurl's limit")
    func emptyAndHuge() {
        #expect(error(CURLE_GOT_NOTHING, "Empty reply from server", connected: true).code == .malformedResponse)
        #expect(error(CURLE_OUT_OF_MEMORY, "Out of memory", connected: true).code == .malformedResponse)
        #expect(error(CURLE_OUT_OF_MEMORY, "Out of memory", connected: false).code == .other)
    }

    @Test("every error keeps libcurl's code as a CurlError, and the response it follows")
    func keepsCodeAndResponse() {
        let response = TransportResponse(url: url, statusCode: 200, headers: HTTPHeaderFields(), httpVersion: .http1_1)
        let cut = error(CURLE_PARTIAL_FILE, "transfer closed with 90 bytes remaining to read", connected: true, response: response)
        #expect(cut.code == .truncatedBody)
        #expect(cut.response?.statusCode == 200)
        #expect(cut.bytesReceived == 10)
        #expect(cut.underlyingError as? CurlError == CurlError(code: 18, name: "Transferred a partial file"))
    }
}
