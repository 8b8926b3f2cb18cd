import Foundation
import WebImageCore

/// RFC 9111's rules for one cache: whether a response may be stored, and what to do with
/// a stored one when it is asked for again. Pure: every time is given.
///
/// ```swift
/// let rules = HTTPCacheRules()
/// switch rules.decision(for: entry.metadata, requestHeaders: headers, at: Date()) {
/// case .fresh: use(entry)
/// case .staleWhileRevalidate: use(entry); refreshBehind()
/// case .revalidate: askWithValidators(entry)
/// case .otherVariant: fetch()
/// }
/// ```
public struct HTTPCacheRules: Sendable, Hashable {
    /// Whether the cache serves more than one user (a server's cache, a proxy's): then
    /// `s-maxage` and `proxy-revalidate` apply, and `private` responses, and responses
    /// to requests with `Authorization` not marked `public`, `s-maxage` or
    /// `must-revalidate`, are not stored. A private cache (an app's, the default) stores
    /// them.
    public var isShared: Bool
    /// The share of the time since `Last-Modified` a response without an explicit expiry
    /// stays fresh: 0.1, as RFC 9111 §4.2.2 suggests.
    public var heuristicFraction: Double
    /// The most a heuristic freshness may be: one day, so an image unchanged for years is
    /// still asked about daily.
    public var heuristicLimit: Duration

    public init(isShared: Bool = false, heuristicFraction: Double = 0.1, heuristicLimit: Duration = .seconds(86_400)) {
        self.isShared = isShared
        self.heuristicFraction = heuristicFraction
        self.heuristicLimit = heuristicLimit
    }

    // MARK: Storing

    /// Whether a response with `responseHeaders`, to a request with `requestHeaders`, may
    /// be stored (RFC 9111 §3): not with `no-store`, not with `Vary: *` (it could never be
    /// used), and for a shared cache not when `private` or answering `Authorization`
    /// without `public`, `s-maxage` or `must-revalidate` (§3.5).
    public func mayStore(responseHeaders: HTTPHeaderFields, requestHeaders: HTTPHeaderFields) -> Bool {
        let control = CacheControl(responseHeaders)
        if control.noStore || VaryRule(responseHeaders).matchesNothing { return false }
        if isShared {
            if control.isPrivate { return false }
            if requestHeaders.contains("Authorization"), !control.isPublic, control.sharedMaxAge == nil, !control.mustRevalidate {
                return false
            }
        }
        return true
    }

    /// The metadata to store for a response: its caching fields, the request's values of
    /// the fields its `Vary` names, and when it was asked for and received.
    public func metadata(
        responseHeaders: HTTPHeaderFields, requestHeaders: HTTPHeaderFields, requestedAt: Date, receivedAt: Date
    ) -> CachedResponseMetadata {
        CachedResponseMetadata(
            responseHeaders: responseHeaders, varyingRequestHeaders: VaryRule(responseHeaders).selecting(from: requestHeaders),
            requestedAt: requestedAt, storedAt: receivedAt)
    }

    /// The stored metadata brought up to date by a 304 (RFC 9111 §4.3.4): each caching
    /// field the 304 carries replaces the stored one of that name; the times become the
    /// revalidation's, so the response is fresh again for its lifetime. `Date` and `Age`
    /// describe the 304 itself: kept only from it, never from the old response.
    public func refreshed(
        _ stored: CachedResponseMetadata, byNotModified responseHeaders: HTTPHeaderFields, requestHeaders: HTTPHeaderFields,
        requestedAt: Date, receivedAt: Date
    ) -> CachedResponseMetadata {
        var fields = HTTPHeaderFields()
        let update = CachedResponseMetadata(responseHeaders: responseHeaders)
        for name in CachedResponseMetadata.cachingFieldNames {
            let fromUpdate = update.headers.contains(name) || name == "Date" || name == "Age"
            let values = fromUpdate ? update.headers.values(for: name) : stored.headers.values(for: name)
            for value in values { fields.add(name, value) }
        }
        var refreshed = CachedResponseMetadata(
            responseHeaders: [:], varyingRequestHeaders: VaryRule(fields).selecting(from: requestHeaders),
            requestedAt: requestedAt, storedAt: receivedAt)
        refreshed.headers = fields
        return refreshed
    }

    // MARK: Using

    /// What to do with a stored response asked for by a request with `requestHeaders`
    /// at `now`.
    public func decision(for stored: CachedResponseMetadata, requestHeaders: HTTPHeaderFields, at now: Date) -> CacheDecision {
        guard VaryRule(stored.headers).matches(stored: stored.varyingRequestHeaders, request: requestHeaders) else {
            return .otherVariant
        }
        let freshness = ResponseFreshness(stored, rules: self)
        if freshness.isFresh(at: now) { return .fresh(remaining: .seconds(freshness.remainingLifetime(at: now))) }
        if freshness.isWithinStaleWindow(freshness.cacheControl.staleWhileRevalidate, at: now) { return .staleWhileRevalidate }
        return .revalidate
    }

    /// Whether a stored response may stand in for a failed revalidation or download at
    /// `now` (`stale-if-error`, RFC 5861 §4). Which failures count is the caller's: a
    /// 500, 502, 503 or 504, or no response at all.
    public func mayUseAfterError(_ stored: CachedResponseMetadata, at now: Date) -> Bool {
        let freshness = ResponseFreshness(stored, rules: self)
        return freshness.isWithinStaleWindow(freshness.cacheControl.staleIfError, at: now)
    }

    /// The HTTP statuses that count as an error for `stale-if-error`.
    public static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]
}

/// What a cache does with a stored response that is asked for.
public enum CacheDecision: Sendable, Hashable {
    /// Fresh: used without asking the server, for `remaining` more.
    case fresh(remaining: Duration)
    /// Stale, but within its `stale-while-revalidate` window: used now, and revalidated
    /// behind.
    case staleWhileRevalidate
    /// Stale (or `no-cache`): asked about first, with its validators when it has any.
    case revalidate
    /// Stored for another variant (`Vary` names a request field that differs), or one
    /// that can never be used (`Vary: *`): fetched as if nothing were stored.
    case otherVariant
}
