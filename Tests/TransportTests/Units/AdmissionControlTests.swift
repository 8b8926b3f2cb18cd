import Testing
@testable import WebImageTransport

@Suite("Admission: which transfers go to libcurl now, which wait")
struct AdmissionControlTests {
    final class Item {
        let name: String
        init(_ name: String) { self.name = name }
    }

    typealias Control = AdmissionControl<Item>
    let a = Control.Lane(origin: "http://a:80", multiplexed: false)
    let b = Control.Lane(origin: "http://b:80", multiplexed: false)

    /// `enter` as an expression a test can check (`#expect` cannot call a mutating method).
    private func enter(_ control: inout Control, _ name: String, _ lane: Control.Lane, limit: Int) -> Bool {
        control.enter(Item(name), lane: lane, limit: limit)
    }

    /// Everything `next()` hands out now, by name.
    private func drain(_ control: inout Control) -> [String] {
        var names: [String] = []
        while let (item, _) = control.next() { names.append(item.name) }
        return names
    }

    @Test("up to the limit go at once; the rest wait")
    func limit() {
        var control = Control()
        let admitted = (0..<5).map { control.enter(Item("\($0)"), lane: a, limit: 2) }
        #expect(admitted == [true, true, false, false, false])
        #expect(control.waitingCount == 3)
        #expect(drain(&control).isEmpty)
    }

    @Test("a freed slot goes to the longest waiting transfer, one per slot")
    func fifo() {
        var control = Control()
        for index in 0..<5 { _ = control.enter(Item("\(index)"), lane: a, limit: 2) }
        control.leave(a)
        #expect(drain(&control) == ["2"])
        control.leave(a)
        control.leave(a)
        #expect(drain(&control) == ["3", "4"])
        #expect(control.waitingCount == 0)
    }

    @Test("a new transfer does not pass the ones already waiting")
    func noOvertaking() {
        var control = Control()
        _ = control.enter(Item("first"), lane: a, limit: 1)
        _ = control.enter(Item("waiting"), lane: a, limit: 1)
        control.leave(a)
        // The slot is free, but "waiting" has not been handed out yet.
        #expect(!enter(&control, "late", a, limit: 1))
        #expect(drain(&control) == ["waiting"])
        control.leave(a)
        #expect(drain(&control) == ["late"])
    }

    @Test("lanes are independent: a full origin does not hold up another")
    func lanes() {
        var control = Control()
        #expect(enter(&control, "a0", a, limit: 1))
        #expect(!enter(&control, "a1", a, limit: 1))
        #expect(enter(&control, "b0", b, limit: 1))
        control.leave(b)
        #expect(drain(&control).isEmpty)
        control.leave(a)
        #expect(drain(&control) == ["a1"])
    }

    @Test("a withdrawn transfer never gets a slot, and the ones behind it move up")
    func withdraw() {
        var control = Control()
        let items = (0..<4).map { Item("\($0)") }
        for item in items { _ = control.enter(item, lane: a, limit: 1) }
        control.withdraw(items[1], from: a)
        control.withdraw(Item("never entered"), from: a)
        #expect(control.waitingCount == 2)
        control.leave(a)
        #expect(drain(&control) == ["2"])
        control.leave(a)
        #expect(drain(&control) == ["3"])
    }

    @Test("a limit of zero or less is no limit")
    func unlimited() {
        var control = Control()
        var admitted = 0
        for index in 0..<1000 where control.enter(Item("\(index)"), lane: a, limit: 0) { admitted += 1 }
        #expect(admitted == 1000)
        #expect(control.waitingCount == 0)
    }

    @Test("the waiting transfers are listed for the timeout check")
    func waitingItems() {
        var control = Control()
        for index in 0..<3 { _ = control.enter(Item("a\(index)"), lane: a, limit: 1) }
        for index in 0..<2 { _ = control.enter(Item("b\(index)"), lane: b, limit: 1) }
        #expect(Set(control.waitingItems.map(\.name)) == ["a1", "a2", "b1"])
    }

    @Test("a lane emptied and used again starts from its limit, not a stale count")
    func emptiedLane() {
        var control = Control()
        _ = control.enter(Item("0"), lane: a, limit: 1)
        control.leave(a)
        #expect(enter(&control, "1", a, limit: 1))
        #expect(!enter(&control, "2", a, limit: 1))
    }

    @Test("ten thousand transfers through two slots come out in order")
    func manyInOrder() {
        var control = Control()
        var started: [String] = []
        for index in 0..<10_000 where control.enter(Item("\(index)"), lane: a, limit: 2) { started.append("\(index)") }
        while started.count < 10_000 {
            control.leave(a)
            started += drain(&control)
        }
        #expect(started == (0..<10_000).map { "\($0)" })
        #expect(control.waitingCount == 0)
    }
}
