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
///
/// This is the configuration only: WebImageOperations computes the delays from it
/// (`isTransient(_:)`, `delay(beforeRetry:after:method:random:now:)`).
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 0 never retries.
    public var maximumRetries: Int
    /// The wait before the first retry; each later one doubles it.
    public var baseDelay: Duration
    /// The longest wait, and the longest `Retry-After` honoured.
    public var maximumDelay: Duration
    /// The random share taken off each delay, 0 (none) to 1.
    public var jitter: Double

    public init(
        maximumRetries: Int = 2, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), jitter: Double = 0.5
    ) {
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
}
