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

    /// Enters `name`; whether it was admitted at once (`#expect` cannot call a mutating
    /// method itself).
    @discardableResult
    private func enter(_ control: inout Control, _ name: String, _ lane: Control.Lane, limit: Int) -> Bool {
        control.enter(Item(name), lane: lane, limit: limit).admitted
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
        let admitted = (0..<5).map { enter(&control, "\($0)", a, limit: 2) }
        #expect(admitted == [true, true, false, false, false])
        #expect(control.waitingCount == 3)
        #expect(drain(&control).isEmpty)
    }

    @Test("a freed slot goes to the longest waiting transfer, one per slot")
    func fifo() {
        var control = Control()
        let (_, lane) = control.enter(Item("0"), lane: a, limit: 2)
        for index in 1..<5 { enter(&control, "\(index)", a, limit: 2) }
        control.leave(lane)
        #expect(drain(&control) == ["2"])
        control.leave(lane)
        control.leave(lane)
        #expect(drain(&control) == ["3", "4"])
        #expect(control.waitingCount == 0)
    }

    @Test("a new transfer does not pass the ones already waiting")
    func noOvertaking() {
        var control = Control()
        let (_, lane) = control.enter(Item("first"), lane: a, limit: 1)
        enter(&control, "waiting", a, limit: 1)
        control.leave(lane)
        // The slot is free, but "waiting" has not been handed out yet.
        #expect(!enter(&control, "late", a, limit: 1))
        #expect(drain(&control) == ["waiting"])
        control.leave(lane)
        #expect(drain(&control) == ["late"])
    }

    @Test("lanes are independent: a full origin does not hold up another")
    func lanes() {
        var control = Control()
        let (first, laneA) = control.enter(Item("a0"), lane: a, limit: 1)
        #expect(first)
        #expect(!enter(&control, "a1", a, limit: 1))
        let (other, laneB) = control.enter(Item("b0"), lane: b, limit: 1)
        #expect(other)
        control.leave(laneB)
        #expect(drain(&control).isEmpty)
        control.leave(laneA)
        #expect(drain(&control) == ["a1"])
    }

    @Test("a withdrawn transfer never gets a slot, and the ones behind it move up")
    func withdraw() {
        var control = Control()
        let items = (0..<4).map { Item("\($0)") }
        let lane = items.map { control.enter($0, lane: a, limit: 1).queue }[0]
        control.withdraw(items[1], from: lane)
        control.withdraw(Item("never entered"), from: lane)
        #expect(control.waitingCount == 2)
        control.leave(lane)
        #expect(drain(&control) == ["2"])
        control.leave(lane)
        #expect(drain(&control) == ["3"])
    }

    @Test("a limit of zero or less is no limit")
    func unlimited() {
        var control = Control()
        var admitted = 0
        for index in 0..<1000 where enter(&control, "\(index)", a, limit: 0) { admitted += 1 }
        #expect(admitted == 1000)
        #expect(control.waitingCount == 0)
    }

    @Test("the waiting transfers are listed for the timeout check")
    func waitingItems() {
        var control = Control()
        for index in 0..<3 { enter(&control, "a\(index)", a, limit: 1) }
        for index in 0..<2 { enter(&control, "b\(index)", b, limit: 1) }
        #expect(Set(control.waitingItems.map(\.name)) == ["a1", "a2", "b1"])
    }

    @Test("an emptied lane is forgotten, and used again starts from its limit")
    func emptiedLane() {
        var control = Control()
        let (_, lane) = control.enter(Item("0"), lane: a, limit: 1)
        #expect(control.laneCount == 1)
        control.leave(lane)
        #expect(control.laneCount == 0)
        #expect(enter(&control, "1", a, limit: 1))
        #expect(!enter(&control, "2", a, limit: 1))
    }

    @Test("a lane whose only waiting transfer is withdrawn, and nothing runs, is forgotten")
    func withdrawnLast() {
        var control = Control()
        let (_, lane) = control.enter(Item("running"), lane: a, limit: 1)
        let waiting = Item("waiting")
        _ = control.enter(waiting, lane: a, limit: 1)
        control.leave(lane)
        control.withdraw(waiting, from: lane)
        #expect(drain(&control).isEmpty)
        #expect(control.laneCount == 0)
        #expect(control.waitingCount == 0)
    }

    @Test("ten thousand transfers through two slots come out in order")
    func manyInOrder() {
        var control = Control()
        var started: [String] = []
        var lane: Control.LaneQueue?
        for index in 0..<10_000 {
            let (admitted, queue) = control.enter(Item("\(index)"), lane: a, limit: 2)
            lane = queue
            if admitted { started.append("\(index)") }
        }
        while started.count < 10_000, let lane {
            control.leave(lane)
            started += drain(&control)
        }
        #expect(started == (0..<10_000).map { "\($0)" })
        #expect(control.waitingCount == 0)
    }
}
