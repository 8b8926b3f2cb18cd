/// The index of an ``LRUSegment``: from a key's hash to its node, by open addressing
/// with linear probing.
///
/// Why not `Dictionary<Key, Int32>`: a dictionary hashes the key itself, and the cache
/// has already hashed it once to pick the shard. Keeping the hash here makes a lookup
/// hash once, as a bare dictionary does; the keys stay in the segment's nodes, and a
/// candidate is confirmed by comparing the full hash, then the key.
///
/// Removal shifts the following entries back rather than leaving tombstones, so probe
/// lengths never degrade. At most 3/4 full; it doubles when it would pass that, and
/// never shrinks (a cache fills again).
@usableFromInline
struct SlotTable {
    @usableFromInline
    struct Bucket {
        @usableFromInline var hash: Int
        /// The node's index; `empty` for a free bucket.
        @usableFromInline var slot: Int32

        @inlinable
        init(hash: Int, slot: Int32) {
            self.hash = hash
            self.slot = slot
        }
    }

    @inlinable static var empty: Int32 { -1 }

    @usableFromInline var buckets: [Bucket]
    @usableFromInline var mask: Int
    @usableFromInline var count = 0

    @inlinable
    init() {
        buckets = Array(repeating: Bucket(hash: 0, slot: Self.empty), count: 16)
        mask = 15
    }

    /// The node whose hash is `hash` and for which `matches` is true.
    @inlinable
    func find(hash: Int, matches: (Int32) -> Bool) -> Int32? {
        var index = hash & mask
        while true {
            let bucket = buckets[index]
            if bucket.slot == Self.empty { return nil }
            if bucket.hash == hash, matches(bucket.slot) { return bucket.slot }
            index = (index &+ 1) & mask
        }
    }

    /// Adds `slot` under `hash`; the caller has checked that its key is absent.
    @inlinable
    mutating func insert(hash: Int, slot: Int32) {
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        place(Bucket(hash: hash, slot: slot))
        count += 1
    }

    /// Removes `slot`, filed under `hash`.
    @inlinable
    mutating func remove(hash: Int, slot: Int32) {
        var hole = hash & mask
        while buckets[hole].slot != slot {
            // Present by contract; an empty bucket here would mean a corrupt table.
            guard buckets[hole].slot != Self.empty else { return }
            hole = (hole &+ 1) & mask
        }
        // Backward shift: move up each later entry of the run whose probe path crosses
        // the hole, so every entry stays reachable from its home bucket.
        var next = hole
        while true {
            next = (next &+ 1) & mask
            let bucket = buckets[next]
            if bucket.slot == Self.empty { break }
            let home = bucket.hash & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                buckets[hole] = bucket
                hole = next
            }
        }
        buckets[hole] = Bucket(hash: 0, slot: Self.empty)
        count -= 1
    }

    @inlinable
    mutating func removeAll() {
        self = SlotTable()
    }

    @inlinable
    mutating func place(_ bucket: Bucket) {
        var index = bucket.hash & mask
        while buckets[index].slot != Self.empty { index = (index &+ 1) & mask }
        buckets[index] = bucket
    }

    @inlinable
    mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(hash: 0, slot: Self.empty), count: old.count * 2)
        mask = buckets.count - 1
        for bucket in old where bucket.slot != Self.empty { place(bucket) }
    }
}
