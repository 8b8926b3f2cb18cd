/// Elements in the order they are served: highest priority first, and within one priority
/// in the order they were added.
///
/// The memory budget's waiters and the worker pool's jobs are both queued this way. Each
/// priority has its own first-in-first-out queue, kept highest first; there are only a
/// few priorities in use at once, so finding one is a short walk. Taking the first element
/// costs O(1) amortised, not the O(n) of `Array.removeFirst()`, because a queue of jobs can
/// grow into the thousands in a burst.
package struct PriorityFIFO<Priority: Comparable, Element> {
    /// The queues, one per priority that has elements, highest priority first.
    private var lanes: [(priority: Priority, queue: FIFOQueue<Element>)] = []

    /// How many elements are queued, over all priorities.
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// Adds `element` behind every element already queued at `priority`.
    package mutating func append(_ element: Element, priority: Priority) {
        count += 1
        if let index = lanes.firstIndex(where: { $0.priority <= priority }) {
            if lanes[index].priority == priority {
                lanes[index].queue.append(element)
            } else {
                lanes.insert((priority, FIFOQueue(element)), at: index)
            }
        } else {
            lanes.append((priority, FIFOQueue(element)))
        }
    }

    /// The element served next, or nil when the queue is empty.
    package var first: Element? { lanes.first?.queue.first }

    /// Takes the element served next.
    package mutating func popFirst() -> Element? {
        guard !lanes.isEmpty, let element = lanes[0].queue.popFirst() else { return nil }
        count -= 1
        if lanes[0].queue.isEmpty { lanes.removeFirst() }
        return element
    }

    /// Takes out the first element (in serving order) that matches, wherever it is: a
    /// waiter that gave up. O(n).
    package mutating func remove(firstWhere matches: (Element) -> Bool) -> Element? {
        for index in lanes.indices {
            if let element = lanes[index].queue.remove(firstWhere: matches) {
                count -= 1
                if lanes[index].queue.isEmpty { lanes.remove(at: index) }
                return element
            }
        }
        return nil
    }

    /// Every element in serving order, for tests and descriptions.
    package var elements: [Element] { lanes.flatMap { $0.queue.elements } }
}
