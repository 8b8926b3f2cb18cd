import Synchronization
import Testing
import WebImage

@testable import WebImageConcurrency
@testable import WebImageManager
@testable import WebImageResources

/// Counts its holds, and runs `onHold` inside `holdStarts()`: a stand-in for a downloader
/// whose start or release runs other code on the same thread (a failed download's
/// handlers), for the switch's own logic. The loopback tests in `OwnedWorkTests` use
/// the real downloader.
private final class CountingHolder: DownloadStartHolding {
    let holds = Atomic<Int>(0)
    let onHold = Locked<(@Sendable () -> Void)?>(nil)

    func holdStarts() {
        holds.add(1, ordering: .relaxed)
        onHold.withLock { $0 }?()
    }

    func releaseStarts() { holds.subtract(1, ordering: .relaxed) }
}

@Suite("Manager: downloads held while loads wait for the memory budget", .timeLimit(.minutes(1)))
struct BudgetBackpressureTests {
    @Test("a waiter that leaves while the hold is being taken, on the same thread, leaves the downloader released")
    func reentrantChange() async throws {
        let queued = AsyncStream<Void>.makeStream()
        let budget = MemoryBudget(capacity: 10, onQueued: { queued.continuation.yield() })
        let held = try await budget.reserve(10)
        let holder = CountingHolder()
        let backpressure = BudgetBackpressure(budget: budget, enabled: true, downloader: holder)
        #expect(backpressure != nil)
        // The waiter asks only once the hold's action is in place: asking sooner, it
        // could be queued and the hold taken with no action, and then it waits forever.
        let (go, letGo) = AsyncStream<Void>.makeStream()
        let waiter = Task {
            for await _ in go { break }
            return try await budget.reserve(10)
        }
        // Taking the hold cancels the waiter, whose leaving comes back into the switch
        // on this very thread: it must neither deadlock nor leave the hold taken.
        holder.onHold.withLock { $0 = { waiter.cancel() } }
        letGo.yield()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(budget.waiting == 0)
        #expect(holder.holds.load(ordering: .relaxed) == 0, "released once the waiter left")
        withExtendedLifetime(backpressure) {}
        held.release()
    }

    @Test("no switch without a budget, with the option off, or for a downloader that cannot hold")
    func notMade() {
        let budget = MemoryBudget(capacity: 10)
        #expect(BudgetBackpressure(budget: nil, enabled: true, downloader: CountingHolder()) == nil)
        #expect(BudgetBackpressure(budget: budget, enabled: false, downloader: CountingHolder()) == nil)
        #expect(BudgetBackpressure(budget: budget, enabled: true, downloader: "not a downloader") == nil)
        #expect(BudgetBackpressure(budget: budget, enabled: true, downloader: CountingHolder()) != nil)
    }
}
