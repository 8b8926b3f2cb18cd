/// Where a loaded image came from.
public enum ImageSource: String, Sendable, Hashable, CustomStringConvertible {
    /// The memory cache: no decode, no I/O.
    case memory
    /// The disk cache's bytes, decoded, used without asking the server: fresh by HTTP's
    /// rules, or under ``CachePolicy/always`` or ``ImageLoadOptions/fromCacheOnly``.
    case disk
    /// The fleet's shared tier (``ImageManager/Configuration/sharedCache``): bytes
    /// another server downloaded, decoded here without asking the origin (fresh by HTTP's
    /// rules, as for ``disk``), and copied to this server's disk cache.
    case shared
    /// Downloaded and decoded.
    case network
    /// The disk cache's bytes after the server answered 304 Not Modified to a
    /// conditional request: a stale entry, a `no-cache` one, or
    /// ``ImageLoadOptions/refreshCached``.
    case revalidated
    /// The disk cache's bytes used stale, as the response allowed: within its
    /// `stale-while-revalidate` window (and revalidated behind), or its `stale-if-error`
    /// window when the server failed.
    case stale

    public var description: String { rawValue }
}
