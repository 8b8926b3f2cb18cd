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
/// Pure bookkeeping, owned by the loop's thread. A transfer keeps the ``LaneQueue`` it
/// entered, so giving its slot back needs no lookup by origin.
struct AdmissionControl<Item: AnyObject> {
    struct Lane: Hashable {
        /// scheme://host:port, lowercased.
        var origin: String
        /// Its requests may share connections as HTTP/2 streams.
        var multiplexed: Bool
    }

    /// One lane's running count and waiting transfers.
    final class LaneQueue {
        let lane: Lane
        let limit: Int
        fileprivate(set) var running = 0
        /// A FIFO: `queue[head...]` are waiting. A slot is cleared as its transfer leaves,
        /// so the queue never keeps a finished transfer alive.
        private var queue: [Item?] = []
        private var head = 0

        fileprivate init(lane: Lane, limit: Int) {
            self.lane = lane
            self.limit = limit
        }

        var waiting: Int { queue.count - head }
        var hasRoom: Bool { running < limit }
        fileprivate var isIdle: Bool { running == 0 && waiting == 0 }
        fileprivate var waitingItems: [Item] { queue[head...].compactMap { $0 } }

        fileprivate func append(_ item: Item) { queue.append(item) }

        fileprivate func popFirst() -> Item {
            let item = queue[head]!
            queue[head] = nil
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= queue.count {
                // Rarely, and then half the storage at least: amortised O(1) per pop.
                queue.removeFirst(head)
                head = 0
            }
            return item
        }

        fileprivate func remove(_ item: Item) -> Bool {
            guard let index = queue[head...].firstIndex(where: { $0 === item }) else { return false }
            // Removed, not cleared: `waiting` counts the slots from `head` on.
            queue.remove(at: index)
            return true
        }
    }

    private var lanes: [Lane: LaneQueue] = [:]
    /// Lanes that have had a slot come free while transfers wait (possibly stale).
    private var ready: [LaneQueue] = []
    /// Transfers waiting in all lanes.
    private(set) var waitingCount = 0

    /// Whether `item` may go to libcurl now (`admitted`, and it counts as running until
    /// ``leave(_:)``); otherwise it waits in `queue` until ``next()`` returns it. `limit`
    /// is the lane's number of concurrent transfers (`<= 0`: no limit); the first call
    /// for a lane fixes it.
    mutating func enter(_ item: Item, lane: Lane, limit: Int) -> (admitted: Bool, queue: LaneQueue) {
        let queue: LaneQueue
        if let existing = lanes[lane] {
            queue = existing
        } else {
            queue = LaneQueue(lane: lane, limit: limit > 0 ? limit : .max)
            lanes[lane] = queue
        }
        if queue.waiting == 0, queue.hasRoom {
            queue.running += 1
            return (true, queue)
        }
        queue.append(item)
        waitingCount += 1
        return (false, queue)
    }

    /// A running transfer of `queue`'s lane left libcurl: its slot is free.
    mutating func leave(_ queue: LaneQueue) {
        queue.running -= 1
        if queue.waiting > 0, queue.running == queue.limit - 1 { ready.append(queue) }
        forgetIfIdle(queue)
    }

    /// Removes a waiting transfer that ended before its turn (cancelled, timed out).
    mutating func withdraw(_ item: Item, from queue: LaneQueue) {
        guard queue.remove(item) else { return }
        waitingCount -= 1
        forgetIfIdle(queue)
    }

    /// The next waiting transfer that may go to libcurl now, counted as running; `nil`
    /// when no lane has both a free slot and a waiting transfer.
    mutating func next() -> (item: Item, queue: LaneQueue)? {
        while let queue = ready.last {
            guard queue.waiting > 0, queue.hasRoom else {
                ready.removeLast()
                continue
            }
            let item = queue.popFirst()
            queue.running += 1
            waitingCount -= 1
            return (item, queue)
        }
        return nil
    }

    /// Every waiting transfer, for the loop's timeout check.
    var waitingItems: [Item] {
        lanes.values.flatMap(\.waitingItems)
    }

    /// Lanes with anything running or waiting (tests: empty lanes are forgotten).
    var laneCount: Int { lanes.count }

    /// The queue of `lane`, when it has anything running or waiting (tests).
    func queue(of lane: Lane) -> LaneQueue? { lanes[lane] }

    /// Whether ``next()`` will look at `queue` for a free slot (tests: a lane with a free
    /// slot and a waiting transfer always is).
    func isReady(_ queue: LaneQueue) -> Bool { ready.contains { $0 === queue } }

    /// An empty lane is forgotten, so a long-lived transport does not grow with every
    /// origin it ever saw.
    private mutating func forgetIfIdle(_ queue: LaneQueue) {
        if queue.isIdle, lanes[queue.lane] === queue { lanes[queue.lane] = nil }
    }
}
