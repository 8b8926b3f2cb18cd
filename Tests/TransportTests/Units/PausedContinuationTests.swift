import Foundation
import Testing
import WebImageCore

@testable import WebImageTransport

/// How a transfer let go while paused asks for the rest of its body, and which answers
/// continue it: plain values, no libcurl.
@Suite("Paused continuation: the rest of a body let go, asked for with Range and If-Range")
struct PausedContinuationTests {
    private let url = URL(string: "https://example.com/a.jpg")!

    private func response(_ status: Int, _ headers: [(String, String)]) -> TransportResponse {
        var fields = HTTPHeaderFields()
        for (name, value) in headers { fields.add(name, value) }
        return TransportResponse(url: url, statusCode: status, headers: fields, httpVersion: .http2)
    }

    @Test("a 200 with a strong ETag is continued from the bytes received, with that tag")
    func plan() throws {
        let head = response(200, [("ETag", "\"v1\""), ("Content-Length", "1000")])
        let continuation = try PausedContinuation.plan(after: head, method: .get, offset: 400).get()
        #expect(continuation.offset == 400)
        #expect(continuation.headers.map(\.name) == ["Range", "If-Range"])
        #expect(continuation.headers.map(\.value) == ["bytes=400-", "\"v1\""])
    }

    @Test(
        "no strong ETag, an encoded body, a HEAD or a status other than 200: not continued",
        arguments: [
            [("Content-Length", "10")], [("ETag", "W/\"v1\"")], [("ETag", "v1")],
            [("ETag", "\"v1\""), ("Content-Encoding", "gzip")],
        ])
    func notContinuable(_ headers: [(String, String)]) {
        let result = PausedContinuation.plan(after: response(200, headers), method: .get, offset: 10)
        guard case .failure(.notContinuable) = result else { return #expect(Bool(false), "\(result)") }
    }

    @Test("a HEAD, a 206 first answer or no answer: not continued")
    func notContinuableRequests() {
        let tagged = [("ETag", "\"v1\"")]
        #expect((try? PausedContinuation.plan(after: response(200, tagged), method: .head, offset: 1).get()) == nil)
        #expect((try? PausedContinuation.plan(after: response(206, tagged), method: .get, offset: 1).get()) == nil)
        #expect((try? PausedContinuation.plan(after: nil, method: .get, offset: 1).get()) == nil)
    }

    @Test("a 206 from the offset continues it; from another byte, or of another tag, does not")
    func partialAnswers() throws {
        let continuation = PausedContinuation(offset: 400, entityTag: "\"v1\"")
        #expect(try continuation.bytesToSkip(in: response(206, [("Content-Range", "bytes 400-999/1000")])).get() == 0)
        #expect(try continuation.bytesToSkip(in: response(206, [("Content-Range", "bytes 400-999/1000"), ("ETag", "\"v1\"")])).get() == 0)
        for headers in [
            [("Content-Range", "bytes 401-999/1000")], [("Content-Range", "bytes */1000")], [("Content-Range", "oops")], [],
            [("Content-Range", "bytes 400-999/1000"), ("ETag", "\"v2\"")],
        ] {
            let result = continuation.bytesToSkip(in: response(206, headers))
            guard case .failure(.changed) = result else { return #expect(Bool(false), "\(headers): \(result)") }
        }
    }

    @Test("a 200 of the same tag repeats the body: the bytes received are skipped; of another tag it is refused")
    func wholeAnswers() throws {
        let continuation = PausedContinuation(offset: 400, entityTag: "\"v1\"")
        #expect(try continuation.bytesToSkip(in: response(200, [("ETag", "\"v1\"")])).get() == 400)
        guard case .failure(.changed) = continuation.bytesToSkip(in: response(200, [("ETag", "\"v2\"")])) else {
            return #expect(Bool(false))
        }
        guard case .failure(.changed) = continuation.bytesToSkip(in: response(200, [])) else { return #expect(Bool(false)) }
        guard case .failure(.changed) = continuation.bytesToSkip(in: response(416, [])) else { return #expect(Bool(false)) }
    }

    @Test("Content-Range's first byte is read from the bytes unit only")
    func contentRange() {
        #expect(PausedContinuation.firstByte(ofContentRange: "bytes 0-9/10") == 0)
        #expect(PausedContinuation.firstByte(ofContentRange: "bytes 123-200/*") == 123)
        #expect(PausedContinuation.firstByte(ofContentRange: "items 1-2/3") == nil)
        #expect(PausedContinuation.firstByte(ofContentRange: "bytes -5/10") == nil)
        #expect(PausedContinuation.firstByte(ofContentRange: "bytes ١٢-5/10") == nil)
    }
}
