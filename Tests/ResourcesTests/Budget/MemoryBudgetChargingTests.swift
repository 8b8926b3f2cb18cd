import Testing
import WebImageCore

@testable import WebImageResources

/// What a frame source charges a budget: held bytes count whatever the room, kept bytes
/// only when they fit with nobody waiting, and refunds let waiters in.
@Suite("MemoryBudget: charges of animations composed on demand", .timeLimit(.minutes(1)))
struct MemoryBudgetChargingTests {
    @Test("held bytes count even past the capacity, and are given back by a refund")
    func heldCountsPastTheCapacity() {
        let budget = MemoryBudget(capacity: 100)
        budget.chargeHeld(80)
        budget.chargeHeld(50)
        #expect(budget.inUse == 130)
        budget.refund(130)
        #expect(budget.inUse == 0)
    }

    @Test("kept bytes count only when they fit within the capacity, even with nothing else in use")
    func keptOnlyWhenTheyFit() {
        let budget = MemoryBudget(capacity: 100)
        #expect(!budget.chargeKept(101))
        #expect(budget.inUse == 0)
        #expect(budget.chargeKept(60))
        #expect(!budget.chargeKept(41))
        #expect(budget.chargeKept(40))
        #expect(budget.inUse == 100)
        budget.refund(100)
        #expect(budget.inUse == 0)
    }

    @Test("kept bytes never go ahead of a decode waiting for the budget, and a refund admits the waiter")
    func keptYieldsToWaiters() async throws {
        let (queued, announce) = AsyncStream<Void>.makeStream()
        let budget = MemoryBudget(capacity: 100, onQueued: { announce.yield() })
        budget.chargeHeld(70)
        let waiter = Task { try await budget.reserve(50, priority: .veryLow) }
        var announcements = queued.makeAsyncIterator()
        _ = await announcements.next()
        #expect(budget.waiting == 1)
        // 30 bytes are free, but someone waits: nothing is kept.
        #expect(!budget.chargeKept(10))
        budget.refund(70)
        let reservation = try await waiter.value
        #expect(budget.inUse == 50)
        reservation.release()
        #expect(budget.inUse == 0)
    }
}
