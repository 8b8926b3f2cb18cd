import Foundation
import Testing
import WebImageHTTP

@testable import WebImageCore
@testable import WebImageOperations

@Suite("AttemptResume: what a head means for kept bytes, and what an attempt keeps")
struct AttemptResumeTests {
    let identity = PartialDownloadIdentity(url: "https://images.example/a.png", variant: 1)
    var kept: PartialDownload {
        PartialDownload(
            identity: identity, body: Data(repeating: 7, count: 100), validator: ResumeValidator(entityTag: EntityTag(parsing: "\"v1\"")!)!,
            completeLength: 1000)
    }

    func head(_ status: Int, _ headers: HTTPHeaderFields) -> TransportResponse {
        TransportResponse(url: URL(string: identity.url)!, statusCode: status, headers: headers, httpVersion: .http1_1)
    }

    func failure(_ code: TransportError.Code, status: Int? = nil) -> TransportError {
        TransportError(code, "test", response: status.map { head($0, [:]) })
    }

    @Test("a 206 that follows on appends to the kept bytes; a broken-off rest is kept as prefix plus rest")
    func appends() throws {
        var resume = AttemptResume(identity: identity, resumed: kept)
        guard
            case .append(let prefix, let completeLength) = resume.accept(
                head(206, ["Content-Range": "bytes 100-999/1000", "ETag": "\"v1\""]))
        else { throw Failure("expected append") }
        #expect(prefix.count == 100 && completeLength == 1000)
        guard case .replace(let partial) = resume.update(after: .transport(failure(.connectionReset)), body: Data(count: 400)) else {
            throw Failure("expected the longer bytes kept")
        }
        #expect(partial.offset == 400 && partial.completeLength == 1000 && partial.validator.ifRangeValue == "\"v1\"")
        guard case .discard = resume.update(after: nil, body: Data(count: 1000)) else { throw Failure("a success keeps nothing") }
    }

    @Test("a 200 to a range starts over: the old bytes go, the new ones are kept under the new validator")
    func startsOver() throws {
        var resume = AttemptResume(identity: identity, resumed: kept)
        guard case .whole = resume.accept(head(200, ["ETag": "\"v2\"", "Content-Length": "900"])) else { throw Failure("expected whole") }
        guard case .replace(let partial) = resume.update(after: .transport(failure(.stalled)), body: Data(count: 50)) else {
            throw Failure("expected the new bytes kept")
        }
        #expect(partial.offset == 50 && partial.validator.ifRangeValue == "\"v2\"" && partial.completeLength == 900)
        guard case .discard = resume.update(after: .transport(failure(.tlsFailure)), body: Data(count: 50)) else {
            throw Failure("a failure that is not a break-off keeps nothing")
        }
    }

    @Test("a refused 206 and a 416 restart the attempt; nothing is kept")
    func refusals() throws {
        var refused = AttemptResume(identity: identity, resumed: kept)
        guard case .refuse(let error) = refused.accept(head(206, ["Content-Range": "bytes 101-999/1000"])) else {
            throw Failure("expected refuse")
        }
        #expect(error.code == .doesNotFollowOn)
        #expect(refused.needsRestart(after: .failure(failure(.cancelled))))
        guard case .discard = refused.update(after: .cancelled, body: Data()) else { throw Failure("expected discard") }

        let unsatisfiable = AttemptResume(identity: identity, resumed: kept)
        #expect(unsatisfiable.needsRestart(after: .failure(failure(.httpStatus, status: 416))))
        #expect(!AttemptResume(identity: identity, resumed: nil).needsRestart(after: .failure(failure(.httpStatus, status: 416))))
        #expect(!unsatisfiable.needsRestart(after: .failure(failure(.httpStatus, status: 503))))
    }

    @Test("nothing is kept without a strong validator, from a content-coded body, or from an empty one")
    func notKept() throws {
        for headers: HTTPHeaderFields in [["ETag": "W/\"v\""], [:], ["ETag": "\"v\"", "Content-Encoding": "gzip"]] {
            var resume = AttemptResume(identity: identity, resumed: nil)
            _ = resume.accept(head(200, headers))
            guard case .discard = resume.update(after: .transport(failure(.connectionReset)), body: Data(count: 10)) else {
                throw Failure("kept with \(headers)")
            }
        }
        var empty = AttemptResume(identity: identity, resumed: nil)
        _ = empty.accept(head(200, ["ETag": "\"v\""]))
        guard case .discard = empty.update(after: .transport(failure(.connectionReset)), body: Data()) else { throw Failure("empty kept") }
    }

    @Test("a failure before any head leaves the kept bytes as they were; a download without identity never keeps")
    func unchanged() throws {
        let resume = AttemptResume(identity: identity, resumed: kept)
        guard case .unchanged = resume.update(after: .transport(failure(.connectionRefused)), body: Data()) else {
            throw Failure("changed")
        }
        var off = AttemptResume(identity: nil, resumed: kept)
        #expect(off.resumed == nil)
        guard case .whole = off.accept(head(206, ["Content-Range": "bytes 100-999/1000"])) else {
            throw Failure("resumed without identity")
        }
        guard case .unchanged = off.update(after: .cancelled, body: Data(count: 5)) else { throw Failure("kept without identity") }
    }

    @Test("the whole response of a resumed download: 200, the complete length, no Content-Range")
    func wholeResponse() {
        let whole = AttemptResume.wholeResponse(
            head(206, ["Content-Range": "bytes 100-999/1000", "Content-Length": "900", "ETag": "\"v1\""]), completeLength: 1000)
        #expect(
            whole.statusCode == 200 && whole.expectedContentLength == 1000 && whole.headers["Content-Range"] == nil
                && whole.headers["ETag"] == "\"v1\"")
    }

    @Test("a request asks for the rest with the validator, a smaller body limit and no content coding; not past the limit")
    func requestDecoration() {
        var request = TransportRequest(url: URL(string: identity.url)!, maximumBodySize: 1000)
        request.resume(kept)
        #expect(request.headers["Range"] == "bytes=100-" && request.headers["If-Range"] == "\"v1\"")
        #expect(request.maximumBodySize == 900 && !request.acceptsCompressedResponses)
        #expect(request.resumes(kept))
        var atLimit = TransportRequest(url: URL(string: identity.url)!, maximumBodySize: 100)
        atLimit.resume(kept)
        #expect(atLimit.headers["Range"] == nil && !atLimit.resumes(kept))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
