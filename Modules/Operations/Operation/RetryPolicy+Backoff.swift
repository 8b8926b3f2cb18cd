import Foundation
import WebImageCore
import WebImageHTTP

/// The computation behind Core's `RetryPolicy` configuration: which failures are
/// transient, and how long to wait before each retry.
extension RetryPolicy {
    /// Whether `error` may go away on its own: a timeout, a stall, a connect timeout, a
    /// reset, or one of `transientStatusCodes`.
    public static func isTransient(_ error: TransportError) -> Bool {
        switch error.code {
        case .timedOut, .stalled, .connectTimeout, .connectionReset: true
        case .httpStatus: error.statusCode.map(transientStatusCodes.contains) ?? false
        default: false
        }
    }

    /// How long to wait before retry number `retry` (1 for the first) after `error`, or
    /// `nil` when there should be none.
    ///
    /// - Parameters:
    ///   - retry: the number of the retry, 1 for the first.
    ///   - error: the failure of the attempt before it.
    ///   - method: the request's method; only `GET` and `HEAD` are retried.
    ///   - random: a number in 0..<1 that picks the jitter (injected so tests can fix it).
    ///   - now: the present, for a `Retry-After` date.
    public func delay(
        beforeRetry retry: Int, after error: TransportError, method: TransportRequest.Method,
        random: Double, now: Date = Date()
    ) -> Duration? {
        guard retry >= 1, retry <= maximumRetries, method == .get || method == .head, Self.isTransient(error) else {
            return nil
        }
        if let status = error.statusCode, status == 429 || status == 503,
            let header = error.response?.headers["Retry-After"]
        {
            guard let asked = Self.retryAfter(header, now: now) else { return backoff(retry, random: random) }
            return asked <= maximumDelay ? asked : nil
        }
        return backoff(retry, random: random)
    }

    /// `min(maximumDelay, baseDelay * 2^(retry-1))`, less the jitter's random share.
    private func backoff(_ retry: Int, random: Double) -> Duration {
        // Capped at 2^30 so the product stays far inside Duration's range.
        let full = min(maximumDelay, baseDelay * (1 << min(retry - 1, 30)))
        return full * (1 - jitter * min(max(random, 0), 1))
    }

    /// A `Retry-After` value: delta-seconds, or an HTTP date (IMF-fixdate).
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let seconds = HTTPDate.parse(trimmed) else { return nil }
        return .seconds(max(0, Double(seconds) - now.timeIntervalSince1970))
    }
}
