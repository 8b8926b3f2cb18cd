/// Which transfers may be in libcurl's multi handle now, and which wait their turn.
///
/// libcurl queues a transfer over the connection limit in the multi handle itself, but
/// in the libcurl that Linux distributions ship (7.88 in Debian 12) that queue is a
/// list: every `curl_multi_remove_handle` walks it whole, and every
/// `curl_multi_perform` visits every queued handle. With a thousand requests waiting
/// for six connections, each finished transfer paid for all of them. So the event loop
/// keeps the waiting transfers here instead and hands libcurl only what can run: per
/// lane (an origin, and whether its requests share HTTP/2 connections), up to the
/// lane's limit. Waiting transfers start in the order they were started (FIFO).
///
/// Pure bookkeeping, owned by the loop's thread.
struct AdmissionControl<Item: AnyObject> {
    struct Lane: Hashable {
        /// scheme://host:port, lowercased.
        var origin: String
        /// Its requests may share connections as HTTP/2 streams.
        var multiplexed: Bool
    }

    private struct LaneState {
        let limit: Int
        var running = 0
        /// A FIFO: `queue[head...]` are waiting.
        var queue: [Item] = []
        var head = 0

        var waiting: Int { queue.count - head }

        mutating func popFirst() -> Item {
            let item = queue[head]
            head += 1
            // Compacts once the consumed prefix is at least half the storage.
            if head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    private var lanes: [Lane: LaneState] = [:]
    /// Lanes that have a free slot and a waiting transfer.
    private var ready: [Lane] = []
    /// Transfers waiting in all lanes.
    private(set) var waitingCount = 0

    /// Whether `item` may go to libcurl now (`true`, and it counts as running until
    /// ``leave(_:)``); otherwise it waits in its lane until ``next()`` returns it.
    /// `limit` is the lane's number of concurrent transfers (`<= 0`: no limit); the
    /// first call for a lane fixes it.
    mutating func enter(_ item: Item, lane: Lane, limit: Int) -> Bool {
        var state = lanes.removeValue(forKey: lane) ?? LaneState(limit: limit > 0 ? limit : .max)
        defer { lanes[lane] = state }
        if state.waiting == 0, state.running < state.limit {
            state.running += 1
            return true
        }
        state.queue.append(item)
        waitingCount += 1
        return false
    }

    /// A running transfer of `lane` left libcurl: its slot is free.
    mutating func leave(_ lane: Lane) {
        guard var state = lanes.removeValue(forKey: lane) else { return }
        state.running -= 1
        if state.waiting > 0, state.running == state.limit - 1 { ready.append(lane) }
        // An empty lane is forgotten, so a long-lived transport does not grow with every
        // origin it ever saw.
        if state.running > 0 || state.waiting > 0 { lanes[lane] = state }
    }

    /// Removes a waiting transfer that ended before its turn (cancelled, timed out).
    mutating func withdraw(_ item: Item, from lane: Lane) {
        guard var state = lanes.removeValue(forKey: lane) else { return }
        defer { if state.running > 0 || state.waiting > 0 { lanes[lane] = state } }
        guard let index = state.queue[state.head...].firstIndex(where: { $0 === item }) else { return }
        state.queue.remove(at: index)
        waitingCount -= 1
    }

    /// The next waiting transfer that may go to libcurl now, counted as running; `nil`
    /// when no lane has both a free slot and a waiting transfer.
    mutating func next() -> (item: Item, lane: Lane)? {
        while let lane = ready.last {
            guard var state = lanes.removeValue(forKey: lane) else {
                ready.removeLast()
                continue
            }
            if state.waiting == 0 || state.running >= state.limit {
                ready.removeLast()
                if state.running > 0 || state.waiting > 0 { lanes[lane] = state }
                continue
            }
            let item = state.popFirst()
            state.running += 1
            waitingCount -= 1
            lanes[lane] = state
            return (item, lane)
        }
        return nil
    }

    /// Every waiting transfer, for the loop's timeout check.
    var waitingItems: [Item] {
        lanes.values.flatMap { $0.queue[$0.head...] }
    }
}
