import Foundation
import Testing

@testable import WebImageCore

@Suite("What a response head says")
struct TransportResponseTests {
    private func length(_ field: String?) -> Int64? {
        var headers = HTTPHeaderFields()
        if let field { headers.add("content-length", field) }
        return TransportResponse(url: URL(string: "https://example.com/a.png")!, statusCode: 200, headers: headers, httpVersion: .http1_1)
            .expectedContentLength
    }

    @Test("Content-Length is digits, with spaces or tabs around them allowed")
    func contentLength() {
        #expect(length("42") == 42)
        #expect(length("0") == 0)
        #expect(length(" 1234\t") == 1234)
        #expect(length("9223372036854775807") == Int64.max)
        #expect(length(nil) == nil)
    }

    @Test("anything else in Content-Length reads as unknown, never as a number")
    func badContentLength() {
        for field in ["", " ", "-123", "+5", "4 2", "12a", "0x10", "1.5", "9223372036854775808", "٣"] {
            #expect(length(field) == nil, "\(field)")
        }
    }

    @Test("header names compare without case, and names of another length never match")
    func headerLookup() {
        let headers: HTTPHeaderFields = ["Content-Type": "image/png", "ETag": "\"a\""]
        #expect(headers["content-type"] == "image/png")
        #expect(headers["ETAG"] == "\"a\"")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Types"] == nil)
        #expect(headers["Content_Type"] == nil)
    }
}
