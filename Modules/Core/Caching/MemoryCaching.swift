/// A thread-safe cache of values in memory, each with a cost (usually its bytes),
/// evicting the least recently used past its limits.
///
/// Thread contract: every method may be called from any thread at once.
public protocol MemoryCaching<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable

    /// The value for `key`, marking it as recently used; `nil` when absent or expired.
    func value(forKey key: Key) -> Value?
    /// Stores `value` with its `cost`, evicting the least recently used entries as the
    /// limits require. A value costlier than the cost limit (for a sharded cache, than
    /// one shard's share of it) is not stored and leaves any existing value in place.
    func setValue(_ value: Value, forKey key: Key, cost: Int)
    /// Stores `value` as ``setValue(_:forKey:cost:)`` does, for `lifetime` at most: once
    /// it has passed, ``value(forKey:)`` misses. The manager stores images so when the
    /// memory cache is to follow HTTP freshness. A lifetime of zero or less stores nothing
    /// (and removes the current value).
    func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAfter lifetime: Duration)
    /// Removes and returns the value for `key`.
    @discardableResult
    func removeValue(forKey key: Key) -> Value?
    /// Removes every value.
    func removeAll()
    /// Evicts least recently used values until the total cost is at most `cost`.
    func trim(toCost cost: Int)
    /// The sum of the costs of the values held.
    var totalCost: Int { get }
    /// The number of values held.
    var count: Int { get }
}

extension MemoryCaching {
    /// For a cache that cannot expire single values: it keeps nothing that must expire
    /// (and drops the current value), so that it never serves one past its lifetime.
    public func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAfter lifetime: Duration) {
        removeValue(forKey: key)
    }
}
