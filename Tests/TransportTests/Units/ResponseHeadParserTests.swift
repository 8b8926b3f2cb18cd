import Testing
import WebImageCore

@_spi(Fuzzing) @testable import WebImageTransport

@Suite("Response heads from libcurl's header lines")
struct ResponseHeadParserTests {
    private func parse(_ lines: [String]) -> ResponseHeadParser {
        var parser = ResponseHeadParser()
        for line in lines {
            Array(line.utf8).withUnsafeBytes { parser.consume($0) }
        }
        return parser
    }

    @Test("a status line, fields and the blank line make a complete head")
    func simple() throws {
        let parser = parse(["HTTP/1.1 200 OK\r\n", "Content-Type: image/png\r\n", "ETag:  \"abc\" \r\n", "\r\n"])
        let head = try #require(parser.lastComplete)
        #expect(head.statusCode == 200)
        #expect(head.httpVersion == .http1_1)
        #expect(head.headers["content-type"] == "image/png")
        #expect(head.headers["ETag"] == "\"abc\"")
    }

    @Test("HTTP/2 status lines carry no reason phrase")
    func http2() throws {
        let head = try #require(parse(["HTTP/2 404 \r\n", "\r\n"]).lastComplete)
        #expect(head.statusCode == 404)
        #expect(head.httpVersion == .http2)
    }

    @Test("an interim 100 is skipped, and a later head replaces an earlier one")
    func severalHeads() throws {
        let parser = parse([
            "HTTP/1.1 100 Continue\r\n", "\r\n",
            "HTTP/1.1 401 Unauthorized\r\n", "WWW-Authenticate: Digest realm=\"r\"\r\n", "\r\n",
            "HTTP/1.1 200 OK\r\n", "Content-Length: 3\r\n", "\r\n",
        ])
        let head = try #require(parser.lastComplete)
        #expect(head.statusCode == 200)
        #expect(head.headers["WWW-Authenticate"] == nil)
        #expect(head.headers["Content-Length"] == "3")
    }

    @Test("a head without its blank line is not complete; garbage lines are ignored")
    func incomplete() {
        let parser = parse(["HTTP/1.1 200 OK\r\n", "no colon here\r\n", "X: y\r\n"])
        #expect(parser.lastComplete == nil)
        #expect(parser.current?.headers.count == 1)
        #expect(parse(["HTTP/1.1 2xx broken\r\n", "\r\n"]).lastComplete == nil)
    }

    @Test("repeated fields keep every value in order")
    func repeated() throws {
        let head = try #require(
            parse([
                "HTTP/1.1 401 No\r\n", "WWW-Authenticate: Basic realm=\"a\"\r\n",
                "www-authenticate: Digest realm=\"b\"\r\n", "\r\n",
            ]).lastComplete)
        #expect(head.headers.values(for: "WWW-Authenticate") == ["Basic realm=\"a\"", "Digest realm=\"b\""])
    }
}

@Suite("Response head limits")
struct ResponseHeadLimitTests {
    @Test("a head growing past the byte limit is cut off, and the parser says so")
    func overLimit() {
        var parser = ResponseHeadParser()
        let status = Array("HTTP/1.1 200 OK\r\n".utf8)
        status.withUnsafeBytes { parser.consume($0) }
        let field = Array("X-Filler: \(String(repeating: "a", count: 1000))\r\n".utf8)
        var lines = 0
        while !parser.isOverLimit {
            field.withUnsafeBytes { parser.consume($0) }
            lines += 1
        }
        #expect(lines > 200 && lines < 300)
        let kept = parser.current?.headers.count ?? 0
        field.withUnsafeBytes { parser.consume($0) }
        #expect(parser.current?.headers.count == kept)
        parser.reset()
        #expect(!parser.isOverLimit)
    }
}
