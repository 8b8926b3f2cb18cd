import Foundation
import Testing
import WebImageCore
import WebImageOperations

@Suite("RetryPolicy backoff: only transient failures, with exponential waits")
struct RetryBackoffTests {
    let url = URL(string: "https://example.com/a.png")!

    func status(_ code: Int, headers: HTTPHeaderFields = [:]) -> TransportError {
        TransportError(
            .httpStatus, "status", url: url,
            response: TransportResponse(url: url, statusCode: code, headers: headers, httpVersion: .http1_1))
    }

    @Test("timeouts, stalls, resets and 408, 429, 500, 502, 503, 504 are transient; the rest are not")
    func transient() {
        for code in [TransportError.Code.timedOut, .stalled, .connectTimeout, .connectionReset] {
            #expect(RetryPolicy.isTransient(TransportError(code, "", url: url)), "\(code)")
        }
        for code in [TransportError.Code.dnsFailure, .serverTrustFailed, .tlsFailure, .bodyTooLarge, .cancelled, .tooManyRedirects] {
            #expect(!RetryPolicy.isTransient(TransportError(code, "", url: url)), "\(code)")
        }
        for code in [408, 429, 500, 502, 503, 504] { #expect(RetryPolicy.isTransient(status(code)), "\(code)") }
        for code in [400, 401, 403, 404, 410, 501] { #expect(!RetryPolicy.isTransient(status(code)), "\(code)") }
    }

    @Test("delays double up to the maximum; jitter takes up to its share off")
    func backoff() {
        let policy = RetryPolicy(maximumRetries: 5, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(350), jitter: 0.5)
        let error = TransportError(.timedOut, "", url: url)
        let full = (1...4).map { policy.delay(beforeRetry: $0, after: error, method: .get, random: 0) }
        #expect(full == [.milliseconds(100), .milliseconds(200), .milliseconds(350), .milliseconds(350)])
        #expect(policy.delay(beforeRetry: 2, after: error, method: .get, random: 1) == .milliseconds(100))
        #expect(policy.delay(beforeRetry: 6, after: error, method: .get, random: 0) == nil, "past the maximum count")
        #expect(RetryPolicy.none.delay(beforeRetry: 1, after: error, method: .get, random: 0) == nil)
    }

    @Test("only idempotent methods and transient failures are retried")
    func idempotentOnly() {
        let policy = RetryPolicy.default
        #expect(policy.delay(beforeRetry: 1, after: status(503), method: .head, random: 0) != nil)
        #expect(policy.delay(beforeRetry: 1, after: status(404), method: .get, random: 0) == nil)
    }

    @Test("Retry-After in seconds or as an HTTP date sets the wait; one past the maximum ends the retries")
    func retryAfter() {
        let policy = RetryPolicy(maximumRetries: 2, maximumDelay: .seconds(10))
        #expect(policy.delay(beforeRetry: 1, after: status(429, headers: ["Retry-After": "3"]), method: .get, random: 0.9) == .seconds(3))
        #expect(policy.delay(beforeRetry: 1, after: status(503, headers: ["Retry-After": "60"]), method: .get, random: 0) == nil)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let date = "Tue, 14 Nov 2023 22:13:25 GMT"  // now + 5 s
        #expect(
            policy.delay(beforeRetry: 1, after: status(503, headers: ["Retry-After": date]), method: .get, random: 0, now: now)
                == .seconds(5))
        // An unreadable value falls back to the backoff.
        #expect(
            policy.delay(beforeRetry: 1, after: status(503, headers: ["Retry-After": "soon"]), method: .get, random: 0)
                == .milliseconds(500))
    }
}
