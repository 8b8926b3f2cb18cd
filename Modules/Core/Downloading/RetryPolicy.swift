import Foundation

/// When and how soon a failed download is tried again. Off unless a downloader or a
/// request opts in.
///
/// Only idempotent requests (GET, HEAD) are retried, and only after transient failures:
/// timeouts, stalls, connect timeouts, resets, and the statuses 408, 429, 500, 502, 503
/// and 504. The n-th retry waits `min(maximumDelay, baseDelay * 2^(n-1))`, reduced by a
/// random part of up to `jitter` of itself so that many clients do not come back at the
/// same instant. A `Retry-After` header (seconds or an HTTP date) on a 429 or 503 sets the
/// wait instead; one longer than `maximumDelay` ends the retries.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 0 never retries.
    public var maximumRetries: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// The random share taken off each delay, 0 (none) to 1.
    public var jitter: Double

    public init(maximumRetries: Int = 2, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), jitter: Double = 0.5) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(1, max(0, jitter))
    }

    /// Never retries.
    public static let none = RetryPolicy(maximumRetries: 0)
    /// Two retries, after about 0.5 s and 1 s.
    public static let `default` = RetryPolicy()

    /// The statuses worth another try.
    public static let transientStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Whether `error` may go away on its own.
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

    private func backoff(_ retry: Int, random: Double) -> Duration {
        let exponent = Double(1 << min(retry - 1, 30))
        let full = min(seconds(maximumDelay), seconds(baseDelay) * exponent)
        let reduced = full * (1 - jitter * min(max(random, 0), 1))
        return .nanoseconds(Int64(reduced * 1e9))
    }

    private func seconds(_ duration: Duration) -> Double {
        let (whole, attos) = duration.components
        return Double(whole) + Double(attos) * 1e-18
    }

    /// A `Retry-After` value: delta-seconds, or an HTTP date (IMF-fixdate).
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let seconds = HTTPDate.parse(trimmed) else { return nil }
        let interval = max(0, Double(seconds) - now.timeIntervalSince1970)
        return .milliseconds(Int64(interval * 1000))
    }
}
