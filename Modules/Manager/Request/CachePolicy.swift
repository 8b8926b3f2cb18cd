/// How a load uses what the disk cache holds for its URL.
///
/// | policy | a fresh entry | a stale entry | nothing stored |
/// |---|---|---|---|
/// | ``protocol`` (default) | used, no request | revalidated (`stale-while-revalidate`: used, revalidated behind; `stale-if-error`: used if the server fails) | downloaded |
/// | ``always`` | used | used, no request | downloaded |
/// | ``never`` | downloaded again | downloaded again | downloaded |
///
/// Under every policy a response is stored only as RFC 9111 allows (never with
/// `no-store`), and ``ImageLoadOptions/refreshCached`` (always revalidate),
/// ``ImageLoadOptions/fromCacheOnly`` (use any stored entry, never download) and
/// ``ImageLoadOptions/fromLoaderOnly`` (never read the caches) take precedence.
public enum CachePolicy: Sendable, Hashable {
    /// HTTP's caching rules (RFC 9111), with the manager's `cacheRules`: freshness from
    /// `Cache-Control`, `Expires`, `Age`, `Date` and, heuristically, `Last-Modified`;
    /// `no-cache` and `must-revalidate` honoured; `Vary` matched against the load's
    /// headers.
    case `protocol`
    /// Anything on disk is used, however old, without asking the server (the behaviour
    /// before HTTP caching rules; for offline-first apps whose images never change).
    case always
    /// The disk cache is never read: every load downloads. Its answers are still stored,
    /// for loads under the other policies.
    case never
}
