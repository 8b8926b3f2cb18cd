import Synchronization
import Testing
import WebImageCore

@testable import WebImageConcurrency
@testable import WebImageResources

/// A budget whose every queued request is announced on `queued`, so a test can wait for
/// a waiter to be in place instead of sleeping.
private struct ObservedBudget {
    let budget: MemoryBudget
    private var queued: AsyncStream<Void>.Iterator

    init(capacity: Int) {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        budget = MemoryBudget(capacity: capacity, onQueued: { continuation.yield() })
        queued = stream.makeAsyncIterator()
    }

    /// Returns once one more request has been queued.
    mutating func nextQueued() async {
        _ = await queued.next()
    }
}

/// Names in the order things happened.
private final class Log: Sendable {
    private let entries = Locked<[String]>([])
    var names: [String] { entries.withLock { $0 } }
    func append(_ name: String) { entries.withLock { $0.append(name) } }
}

@Suite("MemoryBudget: reserve and release bytes across tasks", .timeLimit(.minutes(1)))
struct MemoryBudgetTests {
    @Test("reservations within the capacity are granted at once and counted")
    func withinCapacity() async throws {
        let budget = MemoryBudget(capacity: 100)
        let first = try await budget.reserve(60)
        let second = try await budget.reserve(40, priority: .low)
        #expect(budget.inUse == 100)
        #expect(budget.capacity == 100)
        #expect(budget.waiting == 0)
        first.release()
        first.release()  // the second release gives nothing back
        #expect(budget.inUse == 40)
        #expect(first.isReleased)
        second.release()
        #expect(budget.inUse == 0)
    }

    @Test("a reservation over the free bytes waits, and completes when bytes are released")
    func waitsUntilReleased() async throws {
        var observed = ObservedBudget(capacity: 100)
        let budget = observed.budget
        let holder = try await budget.reserve(80)
        let waiter = Task { try await budget.reserve(50).bytes }
        await observed.nextQueued()
        #expect(budget.waiting == 1)
        holder.release()
        #expect(try await waiter.value == 50)
        #expect(budget.waiting == 0)
        #expect(budget.inUse == 0, "the waiter's reservation was dropped, and gave its bytes back on deinit")
    }

    /// Queues one task per name, in order, each reserving the whole capacity, recording
    /// its name and releasing; then lets them through one at a time and returns the names
    /// in the order they got the bytes.
    private func admissionOrder(of requests: [(name: String, priority: DownloadPriority)]) async throws -> [String] {
        var observed = ObservedBudget(capacity: 10)
        let budget = observed.budget
        let log = Log()
        let holder = try await budget.reserve(10)
        var tasks: [Task<Void, any Error>] = []
        for request in requests {
            tasks.append(
                Task {
                    let reservation = try await budget.reserve(10, priority: request.priority)
                    log.append(request.name)
                    reservation.release()
                }
            )
            await observed.nextQueued()
        }
        holder.release()
        for task in tasks { try await task.value }
        #expect(budget.inUse == 0)
        return log.names
    }

    @Test("waiters of one priority are served first come, first served")
    func fifoWithinPriority() async throws {
        let names = ["a", "b", "c", "d", "e"]
        #expect(try await admissionOrder(of: names.map { ($0, .normal) }) == names)
    }

    @Test("a waiter of higher priority is served before earlier ones of lower priority")
    func higherPriorityFirst() async throws {
        let order = try await admissionOrder(of: [
            ("low", .low), ("normal 1", .normal), ("high", .high), ("normal 2", .normal), ("very high", .veryHigh),
        ])
        #expect(order == ["very high", "high", "normal 1", "normal 2", "low"])
    }

    @Test("a waiter whose task's priority is escalated moves up among the waiters")
    func escalationMovesAWaiterUp() async throws {
        var observed = ObservedBudget(capacity: 10)
        let budget = observed.budget
        let log = Log()
        let holder = try await budget.reserve(10)
        func waiter(_ name: String, _ priority: DownloadPriority) -> Task<Void, any Error> {
            Task(priority: priority.taskPriority) {
                let reservation = try await budget.reserve(10, priority: priority)
                log.append(name)
                reservation.release()
            }
        }
        let low = waiter("low", .low)
        await observed.nextQueued()
        let normal = waiter("normal", .normal)
        await observed.nextQueued()
        low.escalatePriority(to: .high)
        holder.release()
        try await low.value
        try await normal.value
        #expect(log.names == ["low", "normal"])
    }

    @Test("cancelling a waiter throws CancellationError and frees its place: the waiter it held back proceeds")
    func cancelWhileWaiting() async throws {
        var observed = ObservedBudget(capacity: 10)
        let budget = observed.budget
        let holder = try await budget.reserve(6)
        let big = Task { try await budget.reserve(10) }
        await observed.nextQueued()
        let small = Task { try await budget.reserve(4) }
        await observed.nextQueued()
        #expect(budget.waiting == 2)

        big.cancel()
        await #expect(throws: CancellationError.self) { try await big.value }
        let smallReservation = try await small.value  // admitted by the cancel alone
        #expect(budget.inUse == 10)
        #expect(budget.waiting == 0)
        smallReservation.release()
        holder.release()
        #expect(budget.inUse == 0)
    }

    @Test("its waiters' observers hear of the first waiter and of the last one leaving, by grant or cancel, and no more once removed")
    func waitersObserved() async throws {
        var observed = ObservedBudget(capacity: 10)
        let budget = observed.budget
        let seen = Locked<[Int]>([])
        let registration = budget.observeWaiters { seen.withLock { $0.append(budget.waiting) } }
        let holder = try await budget.reserve(6)
        #expect(seen.withLock { $0 }.isEmpty, "a grant at once changes no waiter")
        let big = Task { try await budget.reserve(10) }
        await observed.nextQueued()
        let small = Task { try await budget.reserve(4) }
        await observed.nextQueued()
        #expect(seen.withLock { $0 } == [1], "the first waiter only")
        big.cancel()
        _ = try? await big.value
        let smallReservation = try await small.value
        #expect(seen.withLock { $0 } == [1, 0], "the cancel let the last waiter in")
        smallReservation.release()
        let next = Task { try await budget.reserve(10) }
        await observed.nextQueued()
        holder.release()
        let nextReservation = try await next.value
        #expect(seen.withLock { $0 } == [1, 0, 1, 0], "queued, then granted by a release")
        registration.remove()
        let last = Task { try await budget.reserve(1) }
        await observed.nextQueued()
        nextReservation.release()
        try await last.value.release()
        #expect(seen.withLock { $0 } == [1, 0, 1, 0])
    }

    @Test("a task already cancelled gets CancellationError, even with bytes free, and reserves nothing")
    func alreadyCancelled() async {
        let budget = MemoryBudget(capacity: 10)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await budget.reserve(1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(budget.inUse == 0)
    }

    @Test("a task cancelled after its grant does not leak: the reservation it drops gives the bytes back")
    func cancelAfterGrant() async throws {
        let budget = MemoryBudget(capacity: 10)
        let (granted, grantedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            let reservation = try await budget.reserve(7)
            grantedContinuation.yield()
            // Hold the bytes until cancelled; the reservation is never released by hand.
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            return reservation.bytes
        }
        for await _ in granted { break }
        #expect(budget.inUse == 7)
        task.cancel()
        #expect(try await task.value == 7)
        #expect(budget.inUse == 0)
    }

    @Test("a request larger than the capacity runs alone once nothing else is reserved")
    func oversizedAlone() async throws {
        var observed = ObservedBudget(capacity: 10)
        let budget = observed.budget
        let holder = try await budget.reserve(1)
        let huge = Task { try await budget.reserve(25) }
        await observed.nextQueued()
        holder.release()
        let hugeReservation = try await huge.value
        #expect(budget.inUse == 25)

        let small = Task { try await budget.reserve(1) }
        await observed.nextQueued()
        #expect(budget.waiting == 1, "nothing joins the oversized request")
        hugeReservation.release()
        try await small.value.release()  // the task keeps its result, so release by hand
        #expect(budget.inUse == 0)
    }

    @Test("many concurrent reserve and release cycles, some cancelled, end with nothing in use or waiting")
    func manyCycles() async {
        let budget = MemoryBudget(capacity: 16)
        let overCapacity = Log()
        // Threads of its own: its hundreds of tasks hop thousands of times, and on the
        // shared cooperative pool every hop waits behind the long synchronous decodes of
        // the tests that run beside it (two threads on a two-core machine).
        let pool = WorkerPool(width: 2, name: "budget-cycles")
        defer { pool.shutdown() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<400 {
                group.addTask(executorPreference: pool) {
                    let priority = DownloadPriority.allCases[index % DownloadPriority.allCases.count]
                    guard let reservation = try? await budget.reserve(index % 10 + 1, priority: priority) else { return }
                    if budget.inUse > budget.capacity { overCapacity.append("\(index)") }
                    await Task.yield()
                    if index % 3 != 0 { reservation.release() }  // the rest give back on deinit
                }
                if index % 7 == 0 {
                    let doomed = Task(executorPreference: pool) { _ = try await budget.reserve(16, priority: .veryLow) }
                    doomed.cancel()
                    group.addTask(executorPreference: pool) { _ = try? await doomed.value }
                }
            }
        }
        #expect(overCapacity.names.isEmpty, "reserved beyond the capacity")
        #expect(budget.inUse == 0)
        #expect(budget.waiting == 0)
    }
}
