/// One shard of ``MemoryCache``: a recency list with cost and count limits, evicted in
/// least-recently-used order with a second chance, not thread-safe (the cache keeps each
/// segment behind its own `Mutex`).
///
/// The list is intrusive and lives in arrays of nodes linked by index (no object per
/// node), with a hash index from key to node (``SlotTable``), so that get, set and remove
/// are O(1) and a hit allocates nothing: it probes the index, compares one key, reads one
/// value and marks the node as used, a byte written once until its next second chance.
/// Stores go to the front of the list. Eviction takes the tail; a tail marked as used
/// since it got there is moved to the front instead, unmarked (CLOCK's second chance),
/// so a value read since it reached the tail stays, as under LRU. Among the values that
/// were read, the list keeps the order they were stored or last moved in, not the order
/// of the reads. (Why a hit does not move to the front, as exact LRU does: see
/// ``MemoryCache``.)
///
/// Freed nodes form a free list and are reused before the arrays grow. Every method takes
/// the key's hash, computed once by the cache.
///
/// Methods that drop values hand them back to the caller instead of releasing them, so
/// that the cache can let them go (and run a big image's deinit) after unlocking.
///
/// Everything is `@usableFromInline`/`@inlinable` so that a client's `MemoryCache<CacheKey,
/// DecodedImage>` is specialised for its types: unspecialised generic code across the
/// module boundary made a hit ten times slower.
@usableFromInline
struct LRUSegment<Key: Hashable, Value> {
    /// A node's place in the list: indices of its neighbours, 32-bit so that the links
    /// of a whole shard stay dense in the CPU cache (a store rewrites up to four of them).
    @usableFromInline
    struct Link {
        /// Towards the front (`none` at the head).
        @usableFromInline var previous: Int32
        /// Towards the tail (`none` at the tail); links the free list
        /// for a free node.
        @usableFromInline var next: Int32

        @inlinable
        init(previous: Int32, next: Int32) {
            self.previous = previous
            self.next = next
        }
    }

    /// What a hit reads: the key to confirm the match, and the value.
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?

        @inlinable
        init(key: Key?, value: Value?) {
            self.key = key
            self.value = value
        }
    }

    /// What a hit does not read (but for the deadline).
    @usableFromInline
    struct Record {
        @usableFromInline var hash: Int
        @usableFromInline var cost: Int
        /// When the value expires, in the cache's clock; `Int64.max` for never.
        @usableFromInline var expiresAt: Int64

        @inlinable
        init(hash: Int, cost: Int, expiresAt: Int64) {
            self.hash = hash
            self.cost = cost
            self.expiresAt = expiresAt
        }
    }

    @inlinable static var none: Int32 { -1 }

    @usableFromInline let costLimit: Int
    @usableFromInline let countLimit: Int

    // A node is the same index in four arrays, split by how hot each part is.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var links: [Link] = []
    @usableFromInline var records: [Record] = []
    /// Read since it was stored or last given its second chance.
    @usableFromInline var used: [Bool] = []
    @usableFromInline var index = SlotTable()
    /// Most recently stored (or moved by a second chance).
    @usableFromInline var head = none
    /// Evicted first, unless used.
    @usableFromInline var tail = none
    @usableFromInline var freeList = none

    @usableFromInline var totalCost = 0
    @inlinable var count: Int { index.count }

    @usableFromInline
    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    // MARK: Reading

    /// The value for `key`, now marked as used; `nil` when absent or expired (its
    /// deadline before `now`) (then it is removed, and handed back in `dropped`). `now` is
    /// `nil` when no entry of the cache can expire.
    @inlinable
    mutating func value(forKey key: Key, hash: Int, now: Int64?, dropped: inout Value?) -> Value? {
        guard let slot = find(key, hash: hash) else { return nil }
        if let now, records[Int(slot)].expiresAt < now {
            dropped = remove(slot: slot)
            return nil
        }
        // Written only when it changes: the hits after it write nothing in the shard but
        // its lock.
        if !used[Int(slot)] { used[Int(slot)] = true }
        return entries[Int(slot)].value
    }

    // MARK: Writing

    /// Values dropped under the lock, to be released after it: the first one inline
    /// (a store usually evicts at most one, and then allocates nothing), the rest in an
    /// array.
    @usableFromInline
    struct Dropped {
        @usableFromInline var first: Value?
        @usableFromInline var more: [Value] = []

        @inlinable init() {}

        @inlinable
        mutating func append(_ value: Value) {
            if first == nil { first = value } else { more.append(value) }
        }
    }

    /// Stores `value`, evicting from the tail until the limits hold again. A value
    /// costlier than `costLimit` is refused and the current entry for `key` kept.
    @inlinable
    mutating func setValue(_ value: Value, forKey key: Key, hash: Int, cost: Int, expiresAt: Int64) -> Dropped {
        let cost = max(0, cost)
        var released = Dropped()
        guard cost <= costLimit, countLimit > 0 else { return released }
        let stored: Int32
        if let slot = find(key, hash: hash) {
            stored = slot
            let node = Int(slot)
            released.append(entries[node].value.take()!)
            entries[node].value = value
            totalCost += cost - records[node].cost
            records[node].cost = cost
            records[node].expiresAt = expiresAt
            used[node] = false
            moveToFront(slot)
        } else {
            let slot = allocate(Entry(key: key, value: value), Record(hash: hash, cost: cost, expiresAt: expiresAt))
            index.insert(hash: hash, slot: slot)
            totalCost += cost
            linkAtFront(slot)
            stored = slot
        }
        evict(toCost: costLimit, count: countLimit, into: &released, sparing: stored)
        return released
    }

    /// Removes and returns the value for `key`.
    @inlinable
    mutating func removeValue(forKey key: Key, hash: Int) -> Value? {
        guard let slot = find(key, hash: hash) else { return nil }
        return remove(slot: slot)
    }

    /// Evicts from the tail until the total cost is at most `cost` (a used tail gets its
    /// second chance first).
    @inlinable
    mutating func trim(toCost cost: Int, into evicted: inout Dropped) {
        evict(toCost: max(0, cost), count: countLimit, into: &evicted, sparing: Self.none)
    }

    /// Removes the entries whose deadline is before `now`, appending their values to `dropped`.
    @inlinable
    mutating func removeEntries(expiredAt now: Int64, into dropped: inout Dropped) {
        var slot = head
        while slot != Self.none {
            let next = links[Int(slot)].next
            if records[Int(slot)].expiresAt < now, let value = remove(slot: slot) {
                dropped.append(value)
            }
            slot = next
        }
    }

    /// Every key and cost, in list order from the front (for tests and invariants).
    @inlinable
    func keysAndCosts() -> [(key: Key, cost: Int)] {
        var result: [(key: Key, cost: Int)] = []
        var slot = head
        while slot != Self.none, let key = entries[Int(slot)].key {
            result.append((key, records[Int(slot)].cost))
            slot = links[Int(slot)].next
        }
        return result
    }

    /// Empties the segment and returns what it held, so that the caller releases the
    /// values after unlocking.
    @inlinable
    mutating func takeAll() -> LRUSegment {
        let old = self
        self = LRUSegment(costLimit: costLimit, countLimit: countLimit)
        return old
    }

    // MARK: The list

    @inlinable
    func find(_ key: Key, hash: Int) -> Int32? {
        index.find(hash: hash) { entries[Int($0)].key == key }
    }

    /// Each second chance unmarks a node that a hit marked, so the passes over used
    /// nodes are paid for by earlier hits: amortised O(1) per operation.
    ///
    /// `sparing` is the node a store just put at the front. When every other node was
    /// used, the second chances move them all ahead of it, and it reaches the tail
    /// first: it gets one pass too, so that a store never evicts its own value (which
    /// fits the limits alone).
    @inlinable
    mutating func evict(toCost cost: Int, count: Int, into evicted: inout Dropped, sparing: Int32) {
        var sparing = sparing
        while tail != Self.none, totalCost > cost || index.count > count {
            let slot = tail
            if slot == sparing {
                sparing = Self.none
                moveToFront(slot)
            } else if used[Int(slot)] {
                used[Int(slot)] = false
                moveToFront(slot)
            } else if let value = remove(slot: slot) {
                evicted.append(value)
            }
        }
    }

    @inlinable
    mutating func remove(slot: Int32) -> Value? {
        let node = Int(slot)
        unlink(slot)
        index.remove(hash: records[node].hash, slot: slot)
        totalCost -= records[node].cost
        // Clear the node so it holds no reference while on the free list.
        let value = entries[node].value.take()
        entries[node].key = nil
        records[node] = Record(hash: 0, cost: 0, expiresAt: .max)
        links[node].next = freeList
        freeList = slot
        return value
    }

    @inlinable
    mutating func allocate(_ entry: Entry, _ record: Record) -> Int32 {
        if freeList != Self.none {
            let slot = freeList
            let node = Int(slot)
            freeList = links[node].next
            entries[node] = entry
            records[node] = record
            links[node] = Link(previous: Self.none, next: Self.none)
            used[node] = false
            return slot
        }
        // Past Int32.max nodes a shard would need wider links; no process holds that
        // many values in one shard.
        precondition(entries.count < Int32.max, "a memory cache shard holds at most Int32.max values")
        entries.append(entry)
        records.append(record)
        links.append(Link(previous: Self.none, next: Self.none))
        used.append(false)
        return Int32(entries.count - 1)
    }

    /// A store, or a second chance: one uniqueness check for the four link writes, not
    /// one each.
    @inlinable
    mutating func moveToFront(_ slot: Int32) {
        guard slot != head else { return }
        var head = self.head
        var tail = self.tail
        links.withUnsafeMutableBufferPointer { links in
            let link = links[Int(slot)]
            // Not the head, so it has a previous node.
            links[Int(link.previous)].next = link.next
            if link.next != Self.none { links[Int(link.next)].previous = link.previous } else { tail = link.previous }
            links[Int(slot)] = Link(previous: Self.none, next: head)
            links[Int(head)].previous = slot
            head = slot
        }
        self.head = head
        self.tail = tail
    }

    @inlinable
    mutating func linkAtFront(_ slot: Int32) {
        links[Int(slot)] = Link(previous: Self.none, next: head)
        if head != Self.none { links[Int(head)].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }

    @inlinable
    mutating func unlink(_ slot: Int32) {
        let link = links[Int(slot)]
        if link.previous != Self.none { links[Int(link.previous)].next = link.next } else { head = link.next }
        if link.next != Self.none { links[Int(link.next)].previous = link.previous } else { tail = link.previous }
    }
}
