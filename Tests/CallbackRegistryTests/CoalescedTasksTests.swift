import Synchronization
import Testing
import WebImageConcurrency
import WebImageCore
import WebImageTestSupport

@testable import WebImageCallbackRegistry

@Suite("CoalescedTasks: one run of async work per key, shared by its callers")
struct CoalescedTasksTests {
    typealias Tasks = CoalescedTasks<String, Int>

    @Test("callers that come while the work runs share its one run and its value")
    func callersShareOneRun() async throws {
        let registry = WatchedRegistry()
        let tasks = Tasks(registry: registry)
        let work = HeldWork()
        async let first = tasks.value(for: "k") { try await work.run(returning: 7) }
        async let second = tasks.value(for: "k") { try await work.run(returning: 8) }
        await registry.changes.wait { registry.subscriberCount(for: "k") == 2 }
        work.release()
        let (a, b) = try await (first, second)
        #expect(a.value == b.value)
        #expect(Set([a.joined, b.joined]) == [false, true])
        #expect(work.runs.load(ordering: .relaxed) == 1)
        #expect(tasks.count == 0)
    }

    @Test("each key has a run of its own")
    func keysRunApart() async throws {
        let tasks = Tasks()
        async let a = tasks.value(for: "a") { 1 }
        async let b = tasks.value(for: "b") { 2 }
        let (first, second) = try await (a, b)
        #expect(first.value == 1 && !first.joined)
        #expect(second.value == 2 && !second.joined)
    }

    @Test("a caller after the end starts the work again: nothing is kept")
    func nothingIsKept() async throws {
        let tasks = Tasks()
        let runs = Atomic<Int>(0)
        let work: @Sendable () async throws -> Int = { runs.add(1, ordering: .relaxed).newValue }
        let first = try await tasks.value(for: "k", work: work)
        let second = try await tasks.value(for: "k", work: work)
        #expect(first.value == 1 && second.value == 2)
        #expect(!first.joined && !second.joined)
    }

    @Test("the work's error reaches every caller of its run")
    func errorsFanOut() async throws {
        let registry = WatchedRegistry()
        let tasks = Tasks(registry: registry)
        let work = HeldWork()
        let first = Task { try await tasks.value(for: "k") { try await work.run(throwing: TestFailure(reason: "failed")) } }
        let second = Task { try await tasks.value(for: "k") { try await work.run(returning: 1) } }
        await registry.changes.wait { registry.subscriberCount(for: "k") == 2 }
        work.release()
        for caller in [first, second] {
            await #expect(throws: TestFailure(reason: "failed")) { try await caller.value }
        }
        #expect(work.runs.load(ordering: .relaxed) == 1)
    }

    @Test("a cancelled caller leaves at once; the others still get the value")
    func cancelledCallerLeaves() async throws {
        let registry = WatchedRegistry()
        let tasks = Tasks(registry: registry)
        let work = HeldWork()
        let staying = Task { try await tasks.value(for: "k") { try await work.run(returning: 5) } }
        let leaving = Task { try await tasks.value(for: "k") { try await work.run(returning: 6) } }
        await registry.changes.wait { registry.subscriberCount(for: "k") == 2 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(work.cancelled.load(ordering: .relaxed) == false)
        work.release()
        let stayed = try await staying.value
        #expect(stayed.value == 5 || stayed.value == 6)
    }

    @Test("when every caller is cancelled, the work's task is cancelled")
    func lastCallerOutCancelsTheWork() async throws {
        let registry = WatchedRegistry()
        let tasks = Tasks(registry: registry)
        let work = HeldWork()
        let callers = (0..<3).map { _ in Task { try await tasks.value(for: "k") { try await work.run(returning: 1) } } }
        await registry.changes.wait { registry.subscriberCount(for: "k") == 3 }
        for caller in callers { caller.cancel() }
        for caller in callers {
            await #expect(throws: CancellationError.self) { try await caller.value }
        }
        let cancelled = await work.ended.wait(upTo: .seconds(30)) { work.cancelled.load(ordering: .relaxed) }
        #expect(cancelled, "the work heard no cancellation")
        #expect(work.runs.load(ordering: .relaxed) == 1)
    }

    @Test("a caller cancelled before it asks starts no work")
    func cancelledBeforeAsking() async throws {
        let tasks = Tasks()
        let runs = Atomic<Int>(0)
        let started = EventSignal()
        let caller = Task {
            await started.wait { Task.isCancelled }
            return try await tasks.value(for: "k") {
                try Task.checkCancellation()
                return runs.add(1, ordering: .relaxed).newValue
            }
        }
        caller.cancel()
        started.signal()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(runs.load(ordering: .relaxed) == 0)
    }
}

/// Work that waits for the test's go, counting its runs and whether it was cancelled.
private final class HeldWork: Sendable {
    let runs = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)
    /// Signalled when the work ends, however it ends.
    let ended = EventSignal()
    private let go = EventSignal()
    private let released = Atomic<Bool>(false)

    func release() {
        released.store(true, ordering: .releasing)
        go.signal()
    }

    func run(returning value: Int) async throws -> Int {
        runs.add(1, ordering: .relaxed)
        defer { ended.signal() }
        await withTaskCancellationHandler {
            await go.wait { released.load(ordering: .acquiring) || Task.isCancelled }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
            go.signal()
        }
        try Task.checkCancellation()
        return value
    }

    func run(throwing error: any Error) async throws -> Int {
        _ = try await run(returning: 0)
        throw error
    }
}

/// A `CallbackRegistry` that signals each subscriber's arrival and departure.
private final class WatchedRegistry: CallbackRegistering {
    let changes = EventSignal()
    private let registry = CallbackRegistry<String, Never, Int, any Error>()

    func add(
        to key: String, delivery: CallbackDelivery, makeRun: () -> (any AnyObject & Sendable)?,
        whenAbandoned: @escaping @Sendable ((any AnyObject & Sendable)?) -> Void,
        handler: @escaping @Sendable (SubscriberEvent<Never, Int, any Error>) -> Void
    ) -> Subscription {
        defer { changes.signal() }
        return registry.add(to: key, delivery: delivery, makeRun: makeRun, whenAbandoned: whenAbandoned, handler: handler)
    }

    func remove(_ token: SubscriptionToken, failure: any Error) -> Bool {
        defer { changes.signal() }
        return registry.remove(token, failure: failure)
    }

    func publishProgress(received: Int64, expected: Int64?, for key: String, generation: UInt64?) {
        registry.publishProgress(received: received, expected: expected, for: key, generation: generation)
    }

    func publishPartial(_ partial: Never, for key: String, generation: UInt64?) {}

    func finish(_ key: String, generation: UInt64?, with result: Result<Int, any Error>) -> Int {
        registry.finish(key, generation: generation, with: result)
    }

    func run(for key: String) -> (any AnyObject & Sendable)? { registry.run(for: key) }
    var runs: [any AnyObject & Sendable] { registry.runs }
    func subscriberCount(for key: String) -> Int { registry.subscriberCount(for: key) }
    var keyCount: Int { registry.keyCount }
}
