/// One shard of ``MemoryCache``: a least-recently-used list with cost and count limits,
/// not thread-safe (the cache keeps each segment behind its own `Mutex`).
///
/// The list is intrusive and lives in one array of nodes linked by index, with a
/// dictionary from key to node index, so that get, set and remove are O(1) and a hit
/// allocates nothing: it reads the dictionary and rewrites four indices. Freed nodes
/// form a free list and are reused before the array grows.
///
/// Methods that drop values hand them back to the caller instead of releasing them, so
/// that the cache can let them go (and run a big image's deinit) after unlocking.
struct LRUSegment<Key: Hashable, Value> {
    private struct Node {
        var key: Key?
        var value: Value?
        var cost: Int
        /// When the value was stored, in the cache's clock; 0 when there is no TTL.
        var storedAt: Int64
        /// Towards the most recently used end (`none` at the head).
        var previous: Int
        /// Towards the least recently used end (`none` at the tail); links the free list
        /// for a free node.
        var next: Int
    }

    private static var none: Int { -1 }

    let costLimit: Int
    let countLimit: Int

    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    /// Most recently used.
    private var head = none
    /// Least recently used: evicted first.
    private var tail = none
    private var freeList = none

    private(set) var totalCost = 0
    var count: Int { slots.count }

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    // MARK: Reading

    /// The value for `key`, now the most recently used; `nil` when absent or stored
    /// before `expiredBefore` (then it is removed, and handed back in `dropped`).
    mutating func value(forKey key: Key, expiredBefore: Int64?, dropped: inout Value?) -> Value? {
        guard let slot = slots[key] else { return nil }
        if let expiredBefore, nodes[slot].storedAt < expiredBefore {
            dropped = remove(slot: slot)
            return nil
        }
        moveToFront(slot)
        return nodes[slot].value
    }

    // MARK: Writing

    /// What a store let go of: the value it replaced and the values it evicted.
    struct Released {
        var replaced: Value?
        var evicted: [Value] = []
    }

    /// Stores `value`, evicting from the tail until the limits hold again. A value
    /// costlier than `costLimit` is refused and the current entry for `key` kept.
    mutating func setValue(_ value: Value, forKey key: Key, cost: Int, storedAt: Int64) -> Released {
        let cost = max(0, cost)
        var released = Released()
        guard cost <= costLimit, countLimit > 0 else { return released }
        if let slot = slots[key] {
            released.replaced = nodes[slot].value
            nodes[slot].value = value
            totalCost += cost - nodes[slot].cost
            nodes[slot].cost = cost
            nodes[slot].storedAt = storedAt
            moveToFront(slot)
        } else {
            let slot = allocateNode(Node(key: key, value: value, cost: cost, storedAt: storedAt, previous: Self.none, next: Self.none))
            slots[key] = slot
            totalCost += cost
            linkAtFront(slot)
        }
        evict(toCost: costLimit, count: countLimit, into: &released.evicted)
        return released
    }

    /// Removes and returns the value for `key`.
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return remove(slot: slot)
    }

    /// Evicts from the least recently used end until the total cost is at most `cost`.
    mutating func trim(toCost cost: Int, into evicted: inout [Value]) {
        evict(toCost: max(0, cost), count: countLimit, into: &evicted)
    }

    /// Removes the entries stored before `expiredBefore`, appending their values to
    /// `dropped`.
    mutating func removeEntries(storedBefore expiredBefore: Int64, into dropped: inout [Value]) {
        var slot = head
        while slot != Self.none {
            let next = nodes[slot].next
            if nodes[slot].storedAt < expiredBefore, let value = remove(slot: slot) {
                dropped.append(value)
            }
            slot = next
        }
    }

    /// Every key and cost, most recently used first (for tests and invariants).
    func entries() -> [(key: Key, cost: Int)] {
        var result: [(key: Key, cost: Int)] = []
        var slot = head
        while slot != Self.none, let key = nodes[slot].key {
            result.append((key, nodes[slot].cost))
            slot = nodes[slot].next
        }
        return result
    }

    // MARK: The list

    private mutating func evict(toCost cost: Int, count: Int, into evicted: inout [Value]) {
        while tail != Self.none, totalCost > cost || slots.count > count {
            if let value = remove(slot: tail) { evicted.append(value) }
        }
    }

    private mutating func remove(slot: Int) -> Value? {
        unlink(slot)
        if let key = nodes[slot].key { slots.removeValue(forKey: key) }
        totalCost -= nodes[slot].cost
        let value = nodes[slot].value
        // Clear the node so it holds no reference while on the free list.
        nodes[slot] = Node(key: nil, value: nil, cost: 0, storedAt: 0, previous: Self.none, next: freeList)
        freeList = slot
        return value
    }

    private mutating func allocateNode(_ node: Node) -> Int {
        if freeList != Self.none {
            let slot = freeList
            freeList = nodes[slot].next
            nodes[slot] = node
            return slot
        }
        nodes.append(node)
        return nodes.count - 1
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        nodes[slot].previous = Self.none
        nodes[slot].next = head
        if head != Self.none { nodes[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous, next = nodes[slot].next
        if previous != Self.none { nodes[previous].next = next } else { head = next }
        if next != Self.none { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = Self.none
        nodes[slot].next = Self.none
    }

    /// Empties the segment and returns what it held, so that the caller releases the
    /// values after unlocking.
    mutating func takeAll() -> LRUSegment {
        let old = self
        self = LRUSegment(costLimit: costLimit, countLimit: countLimit)
        return old
    }
}
