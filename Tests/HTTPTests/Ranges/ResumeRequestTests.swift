import Foundation
import Testing
import WebImageCore
import WebImageHTTP

@Suite("ResumeRequest: Range with If-Range, and what a 206 must be to be appended")
struct ResumeRequestTests {
    let validator = ResumeValidator(responseHeaders: ["ETag": "\"v1\""])!

    func response(_ status: Int, _ headers: HTTPHeaderFields) -> TransportResponse {
        TransportResponse(url: URL(string: "http://127.0.0.1/a")!, statusCode: status, headers: headers, httpVersion: .http1_1)
    }

    func decision(_ headers: HTTPHeaderFields, status: Int = 206, known: Int64? = nil) -> RangeResponseDecision {
        ResumeRequest(offset: 100, validator: validator)!.evaluate(response(status, headers), knownCompleteLength: known)
    }

    func refusal(_ headers: HTTPHeaderFields, known: Int64? = nil) -> RangeError.Code? {
        if case .refuse(let error) = decision(headers, known: known) { return error.code }
        return nil
    }

    @Test("asks for everything from the offset, if the validator still matches")
    func headers() throws {
        let request = try #require(ResumeRequest(offset: 100, validator: validator))
        #expect(request.headerFields.map(\.name) == ["Range", "If-Range"])
        #expect(request.headerFields.map(\.value) == ["bytes=100-", "\"v1\""])
        #expect(ResumeRequest(offset: 0, validator: validator) == nil)
    }

    @Test("a 206 that follows on to the end is appended")
    func appends() {
        #expect(
            decision(["Content-Range": "bytes 100-999/1000", "Content-Length": "900", "ETag": "\"v1\""]) == .append(completeLength: 1000))
        #expect(
            decision(["Content-Range": "bytes 100-999/1000", "Content-Encoding": "identity"], known: 1000) == .append(completeLength: 1000))
    }

    @Test("any other status is the whole representation: start over")
    func startsOver() {
        #expect(decision(["ETag": "\"v2\""], status: 200) == .startOver)
        #expect(decision(["Content-Range": "bytes 100-999/1000"], status: 200) == .startOver)
    }

    @Test("a 206 that does not follow on, or cannot be trusted to complete the whole, is refused")
    func refuses() {
        #expect(refusal([:]) == .missingContentRange)
        #expect(
            refusal(HTTPHeaderFields([("Content-Range", "bytes 100-999/1000"), ("Content-Range", "bytes 100-999/1000")]))
                == .multipleContentRanges)
        #expect(refusal(["Content-Range": "garbage"]) == .malformedContentRange)
        #expect(refusal(["Content-Range": "bytes 101-999/1000"]) == .doesNotFollowOn)
        #expect(refusal(["Content-Range": "bytes 0-999/1000"]) == .doesNotFollowOn)
        #expect(refusal(["Content-Range": "bytes 100-998/1000"]) == .doesNotReachEnd)
        #expect(refusal(["Content-Range": "bytes 100-999/*"]) == .completeLengthUnknown)
        #expect(refusal(["Content-Range": "bytes 100-999/1000"], known: 1200) == .completeLengthChanged)
        #expect(refusal(["Content-Range": "bytes 100-999/1000", "Content-Length": "899"]) == .lengthMismatch)
        #expect(refusal(["Content-Range": "bytes 100-999/1000", "Content-Encoding": "gzip"]) == .contentEncoded)
        #expect(refusal(["Content-Range": "bytes 100-999/1000", "ETag": "\"v2\""]) == .validatorMismatch)
        #expect(refusal(["Content-Range": "bytes */1000"]) == .unsatisfiedRange)
    }

    @Test("ten thousand Content-Range fields are refused in one pass")
    func repeatedFields() {
        let fields = HTTPHeaderFields(Array(repeating: ("Content-Range", "bytes 100-999/1000"), count: 10_000))
        #expect(refusal(fields) == .multipleContentRanges)
    }
}
