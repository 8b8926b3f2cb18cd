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
