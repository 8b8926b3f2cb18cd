import WebImageCore

/// A binary heap of waiting operations: highest priority first, then by sequence number
/// (oldest first for FIFO, newest first for LIFO).
///
/// Entries are never removed from the middle: a cancelled operation, or one whose priority
/// rose (it gets a new entry), leaves a stale entry behind that ``popValid`` skips. So
/// every change is O(log n).
struct QueueOrderHeap {
    struct Entry {
        let priority: DownloadPriority
        let sequence: UInt64
        let generation: UInt64
        let operation: QueuedOperation
    }

    private(set) var entries: [Entry] = []
    var order: ExecutionOrder

    init(order: ExecutionOrder) {
        self.order = order
    }

    var isEmpty: Bool { entries.isEmpty }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        if !entries.isEmpty { siftDown(0) }
        return top
    }

    /// Rebuilds the heap for a new order (O(n)); stale entries are dropped on the way.
    mutating func reorder(_ newOrder: ExecutionOrder, keeping isValid: (Entry) -> Bool) {
        order = newOrder
        entries = entries.filter(isValid)
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    mutating func removeAll() { entries.removeAll() }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        return order == .fifo ? a.sequence < b.sequence : a.sequence > b.sequence
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[child], entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var best = left
            if left + 1 < entries.count, precedes(entries[left + 1], entries[left]) { best = left + 1 }
            guard precedes(entries[best], entries[parent]) else { return }
            entries.swapAt(best, parent)
            parent = best
        }
    }
}
