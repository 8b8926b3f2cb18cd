/// A cache of downloaded bytes shared by a fleet of processes or machines: a tier between
/// each process's own disk cache and the network. The manager reads its disk cache, then
/// this tier, then the origin; it writes what the origin sent here, and copies what it
/// finds here to its disk cache.
///
/// Beyond ``DataCaching`` it coalesces misses across the fleet: a ``lookup(forKey:coalescing:)``
/// that misses may take a short lease on the key, telling the other members that this one
/// is fetching it; they wait for the value (about as long as the lease lasts, at most)
/// instead of fetching too. The holder ends the lease by storing the value, or by
/// ``releaseLease(forKey:)`` when it has nothing to store.
///
/// A shared tier is a cache, never a dependency: every method treats a node that is down,
/// slow or returns garbage as a miss (a failed store throws, and the manager ignores it).
public protocol SharedDataCaching: DataCaching {
    /// The entry for `key`; on a miss with `coalescing`, waits while another member of
    /// the fleet holds the key's lease, and takes the lease itself when it is free.
    ///
    /// Returns when the entry is found, when this caller holds the lease
    /// (`.miss(leased: true)`: fetch the bytes, then store them or release the lease), or
    /// when the tier cannot help (`.miss(leased: false)`: its node is unreachable, the wait
    /// ran past the lease's length, or the task was cancelled).
    func lookup(forKey key: CacheKey, coalescing: Bool) async -> SharedCacheLookup

    /// Ends this caller's lease on `key` without storing: the fleet's next member to
    /// look the key up takes it. Does nothing when no lease is held.
    func releaseLease(forKey key: CacheKey) async
}

/// What a shared tier had for a key.
public enum SharedCacheLookup: Sendable {
    /// The entry, checked whole.
    case hit(CachedResponse)
    /// No entry. `leased`: this caller holds the key's lease and the fleet waits for it
    /// (`store(_:metadata:forKey:)` or
    /// ``SharedDataCaching/releaseLease(forKey:)`` ends it).
    case miss(leased: Bool)
}
