import Testing
import WebImageCore

@testable import WebImageConcurrency
@testable import WebImageResources

@Suite("MemoryBudget.StateMachine: who is admitted, and when")
struct MemoryBudgetStateMachineTests {
    typealias Machine = MemoryBudget.StateMachine<String>

    /// Asks for `bytes` as `name`; returns the action and the request's id.
    @discardableResult
    private func reserve(
        _ machine: inout Machine,
        _ name: String,
        _ bytes: Int,
        _ priority: DownloadPriority = .normal,
        cancelled: Bool = false
    ) -> (Machine.ReserveAction, Machine.WaiterID) {
        let id = machine.makeWaiterID()
        return (machine.reserve(bytes, priority: priority, id: id, waiter: name, isCancelled: cancelled), id)
    }

    private func names(_ grants: [Machine.Grant]) -> [String] { grants.map(\.waiter) }

    @Test("requests within the capacity are admitted at once; the one over it waits")
    func withinCapacity() {
        var machine = Machine(capacity: 10)
        #expect(reserve(&machine, "a", 4).0 == .granted)
        #expect(reserve(&machine, "b", 6).0 == .granted)
        #expect(reserve(&machine, "zero", 0).0 == .granted)
        #expect(machine.inUse == 10)
        #expect(reserve(&machine, "c", 1).0 == .waiting)
        #expect(machine.waiting == 1)
        #expect(names(machine.release(4)) == ["c"])
        #expect(machine.inUse == 7)
        #expect(machine.waiting == 0)
    }

    @Test("reserving at once follows the same rule and never queues")
    func reserveAtOnce() {
        var machine = Machine(capacity: 10)
        let first = machine.reserveAtOnce(6, priority: .normal)
        #expect(first)
        #expect(machine.inUse == 6)
        let overCapacity = machine.reserveAtOnce(5, priority: .normal)
        #expect(!overCapacity, "over the capacity")
        #expect(machine.inUse == 6 && machine.waiting == 0, "a refusal changes nothing")
        reserve(&machine, "waiting", 5)
        let behindAWaiter = machine.reserveAtOnce(1, priority: .normal)
        #expect(!behindAWaiter, "it fits, but a waiter of its priority is ahead")
        let higher = machine.reserveAtOnce(1, priority: .high)
        #expect(higher, "a higher priority goes ahead of the waiter")
        #expect(machine.inUse == 7)
        #expect(names(machine.release(7)) == ["waiting"])
        let besideTheWaiter = machine.reserveAtOnce(20, priority: .normal)
        #expect(!besideTheWaiter, "20 does not fit beside the admitted waiter's 5")
        #expect(machine.inUse == 5)
        _ = machine.release(5)
        let alone = machine.reserveAtOnce(20, priority: .normal)
        #expect(alone, "nothing in use: an oversized request runs alone")
    }

    @Test("a release admits every waiter that fits, in order, and stops at the first that does not")
    func releaseAdmitsInOrder() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 10)
        reserve(&machine, "a", 3)
        reserve(&machine, "b", 3)
        reserve(&machine, "c", 5)
        reserve(&machine, "d", 1)
        let grants = machine.release(10)
        #expect(names(grants) == ["a", "b"])
        #expect(grants.map(\.bytes) == [3, 3])
        #expect(machine.queuedWaiters == ["c", "d"], "d fits but waits behind c: no overtaking")
        #expect(names(machine.release(3)) == ["c", "d"])
    }

    @Test("higher priority first, first come first served within one priority")
    func priorityOrder() {
        var machine = Machine(capacity: 1)
        reserve(&machine, "holder", 1)
        reserve(&machine, "low", 1, .low)
        reserve(&machine, "normal 1", 1, .normal)
        reserve(&machine, "high 1", 1, .high)
        reserve(&machine, "normal 2", 1, .normal)
        reserve(&machine, "high 2", 1, .high)
        #expect(machine.queuedWaiters == ["high 1", "high 2", "normal 1", "normal 2", "low"])
        var admitted: [String] = []
        var next = "holder"
        while true {
            let grants = machine.release(1)
            guard let granted = grants.first else { break }
            #expect(grants.count == 1)
            admitted.append(granted.waiter)
            next = granted.waiter
        }
        #expect(next == "low")
        #expect(admitted == ["high 1", "high 2", "normal 1", "normal 2", "low"])
    }

    @Test("a new request that fits waits when someone of its priority or higher is waiting, not when only lower ones are")
    func newRequestsDoNotOvertake() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 8)
        #expect(reserve(&machine, "big normal", 5, .normal).0 == .waiting)
        #expect(reserve(&machine, "small normal", 1, .normal).0 == .waiting)
        #expect(reserve(&machine, "small low", 1, .low).0 == .waiting)
        #expect(reserve(&machine, "small high", 1, .high).0 == .granted)
        #expect(machine.inUse == 9)
        #expect(machine.queuedWaiters == ["big normal", "small normal", "small low"])
    }

    @Test("a request larger than the capacity runs alone: admitted when nothing is in use, and nothing joins it")
    func oversized() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 1)
        #expect(reserve(&machine, "huge", 25).0 == .waiting)
        #expect(names(machine.release(1)) == ["huge"])
        #expect(machine.inUse == 25)
        #expect(reserve(&machine, "small", 1).0 == .waiting)
        #expect(names(machine.release(25)) == ["small"])

        var empty = Machine(capacity: 10)
        #expect(reserve(&empty, "huge at once", 11).0 == .granted)
    }

    @Test("cancelling a waiter takes it out; if it held others back, they are admitted")
    func cancelWaiter() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 6)
        let (_, bigID) = reserve(&machine, "big", 10)
        reserve(&machine, "small", 4)
        reserve(&machine, "too much", 5)
        guard case .fail(let cancelled, let grants) = machine.cancel(bigID) else {
            Issue.record("the waiter was not found")
            return
        }
        #expect(cancelled == "big")
        #expect(names(grants) == ["small"])
        #expect(machine.queuedWaiters == ["too much"])
        #expect(machine.inUse == 10)
        guard case .none = machine.cancel(bigID) else {
            Issue.record("a second cancel found something")
            return
        }
    }

    @Test("a cancel after the grant changes nothing; a request already cancelled is turned away")
    func cancelAfterGrant() {
        var machine = Machine(capacity: 10)
        let (action, id) = reserve(&machine, "a", 3)
        #expect(action == .granted)
        guard case .none = machine.cancel(id) else {
            Issue.record("a granted request was cancelled")
            return
        }
        #expect(machine.inUse == 3)
        #expect(reserve(&machine, "late", 1, cancelled: true).0 == .cancelled)
        #expect(machine.inUse == 3)
        #expect(machine.waiting == 0)
    }

    @Test("a raised waiter moves to the end of its new priority's waiters; a raise to the same or a lower one does nothing")
    func raiseMovesAWaiterUp() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 10)
        let (_, low) = reserve(&machine, "low", 10, .low)
        reserve(&machine, "high", 10, .high)
        reserve(&machine, "normal", 10, .normal)
        #expect(machine.queuedWaiters == ["high", "normal", "low"])
        #expect(machine.raise(low, to: .low).isEmpty)
        #expect(machine.queuedWaiters == ["high", "normal", "low"])
        #expect(machine.raise(low, to: .high).isEmpty, "nothing fits while the holder holds everything")
        #expect(machine.queuedWaiters == ["high", "low", "normal"])
    }

    @Test("a raise that makes a fitting waiter the first admits it")
    func raiseAdmitsWhenFirstAndFitting() {
        var machine = Machine(capacity: 10)
        reserve(&machine, "holder", 4)
        reserve(&machine, "big", 8, .normal)
        let (action, small) = reserve(&machine, "small", 2, .low)
        #expect(action == .waiting, "it fits, but waits behind the big one")
        #expect(names(machine.raise(small, to: .high)) == ["small"])
        #expect(machine.inUse == 6)
        #expect(machine.queuedWaiters == ["big"])
    }

    @Test("raising a waiter that is no longer queued does nothing")
    func raiseOfAnAdmittedWaiter() {
        var machine = Machine(capacity: 10)
        let (_, admitted) = reserve(&machine, "a", 5)
        #expect(machine.raise(admitted, to: .veryHigh).isEmpty)
        #expect(machine.inUse == 5)
    }
}
