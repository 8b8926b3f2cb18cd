/// A first-in-first-out queue on an array with a moving head, compacted when the taken
/// part outgrows the rest.
package struct FIFOQueue<Element> {
    private var storage: [Element?]
    private var head = 0

    package init() { storage = [] }
    package init(_ first: Element) { storage = [first] }

    package var isEmpty: Bool { head == storage.count }
    package var count: Int { storage.count - head }
    package var first: Element? { isEmpty ? nil : storage[head] }
    package var elements: [Element] { storage[head...].compactMap { $0 } }

    package mutating func append(_ element: Element) { storage.append(element) }

    /// Takes back the element appended last.
    package mutating func removeLast() -> Element? {
        guard !isEmpty else { return nil }
        return storage.removeLast()
    }

    package mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        compactIfWorthIt()
        return element
    }

    package mutating func remove(firstWhere matches: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: { $0.map(matches) ?? false }) else { return nil }
        let element = storage.remove(at: index)
        return element
    }

    private mutating func compactIfWorthIt() {
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
