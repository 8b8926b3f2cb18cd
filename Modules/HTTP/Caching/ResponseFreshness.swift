import Foundation
import WebImageCore

/// How long a stored response stays fresh and how old it is (RFC 9111 §4.2), from its
/// metadata alone: every time is given, none is read from a clock, so the arithmetic is
/// testable to the second.
///
/// - Lifetime (§4.2.1): for a shared cache `s-maxage`; else `max-age`; else
///   `Expires` minus `Date` (an `Expires` that is not a date means already expired);
///   else, with `Last-Modified` and no `no-cache`, the heuristic: a tenth of the time
///   between `Last-Modified` and `Date`, at most ``HTTPCacheRules/heuristicLimit``.
/// - Age (§4.2.3): the larger of the response's apparent age (its arrival minus its
///   `Date`) and its `Age` plus the time the request took, plus the time it has been
///   stored since.
public struct ResponseFreshness: Sendable, Hashable {
    /// Seconds the response is fresh for, counted from its origin (age 0).
    public let lifetime: TimeInterval
    /// Whether ``lifetime`` is the heuristic (no explicit expiry was given).
    public let isHeuristic: Bool
    /// Its age when it arrived, in seconds (RFC 9111's `corrected_initial_age`).
    public let initialAge: TimeInterval
    /// When it arrived.
    public let receivedAt: Date
    /// Its directives.
    public let cacheControl: CacheControl
    /// Whether a stale use is forbidden outright: `no-cache`, `must-revalidate`, and for
    /// a shared cache `s-maxage` and `proxy-revalidate` (RFC 9111 §4.2.4).
    public let forbidsStaleUse: Bool

    /// The freshness of the response `metadata` describes, for a private or a shared cache.
    public init(_ metadata: CachedResponseMetadata, rules: HTTPCacheRules = HTTPCacheRules()) {
        let headers = metadata.headers
        let control = CacheControl(headers)
        let received = metadata.storedAt
        // Without a valid Date, the arrival stands in for it (RFC 9110 §6.6.1).
        let date = headers["Date"].flatMap { HTTPDate.date($0, now: received) } ?? received

        var lifetime: TimeInterval = 0
        var heuristic = false
        if rules.isShared, let shared = control.sharedMaxAge {
            lifetime = TimeInterval(shared)
        } else if let maxAge = control.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires = headers["Expires"] {
            // An invalid Expires ("0", "-1") means already expired (RFC 9111 §5.3).
            lifetime = HTTPDate.date(expires, now: received).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if !control.noCache, let modified = headers["Last-Modified"].flatMap({ HTTPDate.date($0, now: received) }) {
            lifetime = min(max(0, date.timeIntervalSince(modified)) * rules.heuristicFraction, rules.heuristicLimit.seconds)
            heuristic = true
        }

        let apparentAge = max(0, received.timeIntervalSince(date))
        let ageValue = headers["Age"].flatMap { CacheControl.seconds($0.trimmingHTTPWhitespace) } ?? 0
        let responseDelay = max(0, received.timeIntervalSince(metadata.requestedAt))
        self.lifetime = lifetime
        self.isHeuristic = heuristic
        self.initialAge = max(apparentAge, TimeInterval(ageValue) + responseDelay)
        self.receivedAt = received
        self.cacheControl = control
        self.forbidsStaleUse =
            control.noCache || control.mustRevalidate
            || (rules.isShared && (control.sharedMaxAge != nil || control.proxyRevalidate))
    }

    /// Its age at `now`, in seconds (RFC 9111's `current_age`).
    public func age(at now: Date) -> TimeInterval {
        initialAge + max(0, now.timeIntervalSince(receivedAt))
    }

    /// Whether it is fresh at `now`. A `no-cache` response is never fresh: every use asks.
    public func isFresh(at now: Date) -> Bool {
        !cacheControl.noCache && lifetime > age(at: now)
    }

    /// Seconds of freshness left at `now`: negative once stale (by how much), 0 for a
    /// `no-cache` response.
    public func remainingLifetime(at now: Date) -> TimeInterval {
        cacheControl.noCache ? min(0, lifetime - age(at: now)) : lifetime - age(at: now)
    }

    /// Whether it may be used stale at `now`, within `window` seconds past its lifetime
    /// (a `stale-while-revalidate` or `stale-if-error` value), and stale use is allowed.
    public func isWithinStaleWindow(_ window: Int?, at now: Date) -> Bool {
        guard let window, !forbidsStaleUse else { return false }
        return -remainingLifetime(at: now) <= TimeInterval(window)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
