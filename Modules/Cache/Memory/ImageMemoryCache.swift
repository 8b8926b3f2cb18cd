import WebImageCore

/// The memory cache of decoded images: a ``MemoryCache`` keyed by `CacheKey` behind a
/// type that is not generic.
///
/// The Manager holds its memory cache as `any MemoryCaching<CacheKey, DecodedImage>`. A
/// generic class called through such an existential from another module runs its
/// unspecialised code and looks up generic metadata on every call: a hit measured 527 ns
/// that way against 119 ns called directly. Here the calls are made with the types
/// known, inside this module, so the compiler specialises them.
public final class ImageMemoryCache: MemoryCaching, Sendable {
    public let storage: MemoryCache<CacheKey, DecodedImage>

    public init(configuration: MemoryCacheConfiguration = MemoryCacheConfiguration()) {
        storage = MemoryCache(configuration: configuration)
    }

    public func value(forKey key: CacheKey) -> DecodedImage? { storage.value(forKey: key) }

    public func setValue(_ value: DecodedImage, forKey key: CacheKey, cost: Int) {
        storage.setValue(value, forKey: key, cost: cost)
    }

    public func setValue(_ value: DecodedImage, forKey key: CacheKey, cost: Int, expiresAfter lifetime: Duration) {
        storage.setValue(value, forKey: key, cost: cost, expiresAfter: lifetime)
    }

    @discardableResult
    public func removeValue(forKey key: CacheKey) -> DecodedImage? { storage.removeValue(forKey: key) }

    public func removeAll() { storage.removeAll() }

    public func trim(toCost cost: Int) { storage.trim(toCost: cost) }

    /// Removes the expired entries (past the time to live or their own lifetime).
    public func removeExpired() { storage.removeExpired() }

    public var totalCost: Int { storage.totalCost }

    public var count: Int { storage.count }
}
