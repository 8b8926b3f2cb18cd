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

    @Test("kept bytes count only while the bytes in use stay within half the capacity, even with nothing else in use")
    func keptOnlyWithinHalf() {
        let budget = MemoryBudget(capacity: 100)
        #expect(!budget.chargeKept(51))
        #expect(budget.inUse == 0)
        #expect(budget.chargeKept(30))
        #expect(!budget.chargeKept(21))
        #expect(budget.chargeKept(20))
        #expect(budget.inUse == 50)
        // Held bytes count past it; then nothing more is kept.
        budget.chargeHeld(10)
        #expect(!budget.chargeKept(1))
        budget.refund(60)
        #expect(budget.inUse == 0)
    }

    @Test("the half that kept bytes leave is there for a decode: it is admitted at once")
    func decodesKeepTheirHalf() async throws {
        let budget = MemoryBudget(capacity: 100)
        #expect(budget.chargeKept(50))
        let reservation = try await budget.reserve(50)
        #expect(budget.inUse == 100)
        reservation.release()
        budget.refund(50)
        #expect(budget.inUse == 0)
    }

    @Test("kept bytes never go ahead of a decode waiting for the budget, and a refund admits the waiter")
    func keptYieldsToWaiters() async throws {
        let (queued, announce) = AsyncStream<Void>.makeStream()
        let budget = MemoryBudget(capacity: 100, onQueued: { announce.yield() })
        budget.chargeHeld(20)
        let waiter = Task { try await budget.reserve(90, priority: .veryLow) }
        var announcements = queued.makeAsyncIterator()
        _ = await announcements.next()
        #expect(budget.waiting == 1)
        // 10 bytes would stay within half the capacity, but someone waits: nothing is kept.
        #expect(!budget.chargeKept(10))
        budget.refund(20)
        let reservation = try await waiter.value
        #expect(budget.inUse == 90)
        reservation.release()
        #expect(budget.inUse == 0)
    }
}
