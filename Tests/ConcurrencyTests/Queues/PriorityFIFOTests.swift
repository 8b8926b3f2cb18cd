import Testing

@testable import WebImageConcurrency

@Suite("PriorityFIFO: highest priority first, first in first out within one")
struct PriorityFIFOTests {
    @Test("elements come out by priority, then in the order they went in")
    func order() {
        var queue = PriorityFIFO<Int, String>()
        queue.append("low 1", priority: 0)
        queue.append("high 1", priority: 2)
        queue.append("mid 1", priority: 1)
        queue.append("high 2", priority: 2)
        queue.append("low 2", priority: 0)
        #expect(queue.count == 5)
        #expect(queue.first == "high 1")
        #expect(queue.elements == ["high 1", "high 2", "mid 1", "low 1", "low 2"])
        var seen: [String] = []
        while let element = queue.popFirst() { seen.append(element) }
        #expect(seen == ["high 1", "high 2", "mid 1", "low 1", "low 2"])
        #expect(queue.isEmpty)
        #expect(queue.first == nil)
    }

    @Test("an element removed from the middle leaves the rest in order")
    func removeFromMiddle() {
        var queue = PriorityFIFO<Int, Int>()
        for number in 1...5 { queue.append(number, priority: number % 2) }
        #expect(queue.remove(firstWhere: { $0 == 3 }) == 3)
        #expect(queue.remove(firstWhere: { $0 == 3 }) == nil)
        #expect(queue.remove(firstWhere: { $0 == 2 }) == 2)
        #expect(queue.remove(firstWhere: { $0 == 4 }) == 4)  // its priority's lane is now empty
        #expect(queue.count == 2)
        #expect(queue.elements == [1, 5])
    }

    @Test("a long run of appends and pops keeps FIFO order across compactions")
    func longRun() {
        var queue = PriorityFIFO<Int, Int>()
        var next = 0
        var expected = 0
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(next, priority: 0)
                next += 1
            }
            for _ in 0..<(round % 5) {
                guard let element = queue.popFirst() else { break }
                #expect(element == expected)
                expected += 1
            }
        }
        while let element = queue.popFirst() {
            #expect(element == expected)
            expected += 1
        }
        #expect(expected == next)
    }
}
