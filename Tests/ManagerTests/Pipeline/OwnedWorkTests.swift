import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageOperations
@testable import WebImageResources

/// A transformer that notes whether it ran on `pool`'s threads.
private final class ThreadProbe: ImageTransforming {
    let pool: WorkerPool
    let ranOnPool = Locked<[Bool]>([])
    init(pool: WorkerPool) { self.pool = pool }
    var identifier: String { "thread-probe" }
    func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        let onPool = pool.isCurrentThreadInPool
        ranOnPool.withLock { $0.append(onPool) }
        return image
    }
}

/// A transformer that always fails, as a resize refusing its input would.
private struct FailingTransformer: ImageTransforming {
    var identifier: String { "always-fails" }
    func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        throw ImageDecodingError(.invalidState, "refused by the test")
    }
}

/// A memory budget the test has spent whole, with the signal of each change of it, so
/// that a test waits for its waiters, or for its bytes to come back, instead of sleeping.
private struct SpentBudget {
    let budget: MemoryBudget
    /// The test's own reservation of the whole capacity.
    let held: MemoryReservation
    /// Signalled at each change of the budget's bytes in use or waiters.
    let changed: EventSignal

    init(capacity: Int = 1 << 20) async throws {
        budget = MemoryBudget(capacity: capacity)
        changed = budget.changeSignal()
        held = try await budget.reserve(capacity)
    }

    /// Returns once `count` requests wait for the budget.
    func waitForWaiters(_ count: Int) async {
        await changed.wait { budget.waiting == count }
    }

    /// Whether every byte came back and nobody waits, within `limit` (a bound on a wait
    /// for the last release, which the manager makes just after its handler returned).
    func becomesIdle(upTo limit: Duration = .seconds(10)) async -> Bool {
        await changed.wait(upTo: limit) { budget.inUse == 0 && budget.waiting == 0 }
    }
}

extension MemoryBudget {
    /// A signal of each change of the bytes in use or of the waiters, for the budget's
    /// life.
    fileprivate func changeSignal() -> EventSignal {
        let signal = EventSignal()
        _ = observeChanges(signal.callback)
        return signal
    }
}

/// A dispatch queue held suspended until ``resume()``, and resumed when it goes if the
/// test did not (a suspended queue must not be freed), so that a failing test cannot crash.
private final class HeldQueue: Sendable {
    let queue: DispatchQueue
    private let isHeld = Atomic<Bool>(true)

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.suspend()
    }

    func resume() {
        if isHeld.exchange(false, ordering: .relaxed) { queue.resume() }
    }

    deinit { resume() }
}

@Suite("Manager: work on its own executor, within a memory budget", .timeLimit(.minutes(1)))
struct OwnedWorkTests {
    @Test("a load decodes and transforms on the manager's executor; with none, off it")
    func executor() async throws {
        let pool = WorkerPool(width: 1, name: "test-pool")
        defer { pool.shutdown() }
        try await withFixture { fixture in
            for executor in [pool, nil] as [WorkerPool?] {
                let probe = ThreadProbe(pool: pool)
                let manager = fixture.manager { $0.manager.executor = executor }
                _ = try await manager.image(for: ImageRequest(url: fixture.url("photo.jpg"), context: .init(transformers: [probe])))
                #expect(probe.ranOnPool.withLock { $0 } == [executor != nil])
            }
        }
    }

    @Test("a load whose decode does not fit waits for the budget, then completes and gives its bytes back")
    func waitsForTheBudget() async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let log = LoadLog()
            let token = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg")), handler: log.handler)
            await spent.waitForWaiters(1)
            #expect(log.completions == 0, "nothing decoded while the budget is spent")
            held.release()
            let result = await log.result()
            withExtendedLifetime(token) {}
            #expect((try? result.get())?.image != nil, "\(result)")
            // Given back once the handler has returned, on the run's thread.
            #expect(await spent.becomesIdle())
        }
    }

    @Test("a load cancelled while it waits for the budget ends cancelled and leaves the budget as it was")
    func cancelledWhileWaiting() async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let log = LoadLog()
            let token = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg")), handler: log.handler)
            await spent.waitForWaiters(1)
            token.cancel()
            let result = await log.result()
            #expect(result.error?.isCancelled == true, "\(result)")
            #expect(budget.waiting == 0)
            #expect(budget.inUse == 1 << 20, "only the test's own reservation")
            held.release()
        }
    }

    @Test(
        "a load whose decode or transform fails after it got its budget bytes ends with that error and gives them back",
        arguments: ["decode", "transform"])
    func failureGivesTheBytesBack(failingStage: String) async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            // truncated.jpg has a whole header, so its pixels are counted before the
            // decode fails; photo.jpg decodes, and the transformer then throws.
            let request =
                failingStage == "decode"
                ? ImageRequest(url: fixture.url("truncated.jpg"))
                : ImageRequest(url: fixture.url("photo.jpg"), context: .init(transformers: [FailingTransformer()]))
            let log = LoadLog()
            let token = manager.loadImage(with: request, handler: log.handler)
            await spent.waitForWaiters(1)
            held.release()
            let result = await log.result()
            withExtendedLifetime(token) {}
            switch (failingStage, result.error) {
            case ("decode", .decoding?), ("transform", .transform?): break
            default: Issue.record("expected the \(failingStage) to fail: \(result)")
            }
            #expect(await spent.becomesIdle())
        }
    }

    @Test("while a load waits for the budget, the next download does not start; it does once no load waits")
    func downloadsHeldWhileDecodesWait() async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let queue = try downloadQueue(of: manager)
            // The budget's signal hears the queue's changes too.
            let watching = queue.observeChanges(spent.changed.callback)
            defer { watching.remove() }
            let first = LoadLog()
            let firstToken = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg")), handler: first.handler)
            await spent.waitForWaiters(1)
            #expect(queue.isHoldingStarts, "held from the moment a load waits")
            let second = LoadLog()
            let secondToken = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: second.handler)
            #expect(await spent.changed.wait(upTo: .seconds(10)) { queue.pendingCount == 1 }, "the second download waits in the queue")
            #expect(fixture.hits("badge.png") == 0, "and the server never heard of it")
            held.release()
            let results = (await first.result(), await second.result())
            withExtendedLifetime((firstToken, secondToken)) {}
            #expect((try? results.0.get())?.image != nil, "\(results.0)")
            #expect((try? results.1.get())?.image != nil, "\(results.1)")
            #expect(fixture.hits("badge.png") == 1)
            #expect(await spent.changed.wait(upTo: .seconds(10)) { !queue.isHoldingStarts && budget.inUse == 0 && budget.waiting == 0 })
        }
    }

    @Test("with holdsDownloadsWhileDecodesWait off, downloads go on while a load waits for the budget")
    func downloadsGoOnWhenNotHeld() async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager {
                $0.manager.memoryBudget = budget
                $0.manager.holdsDownloadsWhileDecodesWait = false
            }
            let queue = try downloadQueue(of: manager)
            let first = LoadLog()
            let firstToken = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg")), handler: first.handler)
            await spent.waitForWaiters(1)
            let second = LoadLog()
            let secondToken = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: second.handler)
            await spent.waitForWaiters(2)
            #expect(!queue.isHoldingStarts)
            #expect(fixture.hits("badge.png") == 1, "downloaded, now waiting for the budget too")
            held.release()
            let results = (await first.result(), await second.result())
            withExtendedLifetime((firstToken, secondToken)) {}
            #expect((try? results.0.get())?.image != nil && (try? results.1.get())?.image != nil)
        }
    }

    @Test("a decode's budget bytes stay reserved while the load's handler runs, and not in the response it keeps")
    func reservedUntilTheHandlerReturns() async throws {
        try await withFixture { fixture in
            let budget = MemoryBudget(capacity: 1 << 30)
            let changed = budget.changeSignal()
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let log = LoadLog()
            let inUseInHandler = Atomic<Int>(-1)
            let kept = Locked<ImageResponse?>(nil)
            let token = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg"))) { event in
                if case .completed(let result) = event {
                    inUseInHandler.store(budget.inUse, ordering: .relaxed)
                    kept.withLock { $0 = try? result.get() }
                }
                log.handler(event)
            }
            _ = await log.result()
            withExtendedLifetime(token) {}
            #expect(inUseInHandler.load(ordering: .relaxed) > 0, "the caller gets the image before the next decode may start")
            #expect(await changed.wait(upTo: .seconds(10)) { budget.inUse == 0 }, "given back once the handler returned")
            #expect(kept.withLock { $0?.image } != nil)
        }
    }

    @Test("an async load gives its decode's budget bytes back as it returns, though the caller keeps the response")
    func asyncCallerKeepsNoReservation() async throws {
        try await withFixture { fixture in
            let budget = MemoryBudget(capacity: 1 << 30)
            let changed = budget.changeSignal()
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let response = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg")))
            #expect(await changed.wait(upTo: .seconds(10)) { budget.inUse == 0 })
            #expect(response.image != nil)
        }
    }

    @Test("a load monitor whose queue has yet to run keeps none of the budget's bytes")
    func monitorKeepsNoReservation() async throws {
        try await withFixture { fixture in
            let budget = MemoryBudget(capacity: 1 << 30)
            let changed = budget.changeSignal()
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let held = HeldQueue(label: "held-monitor")
            defer { held.resume() }  // held to the end of the test
            let registration = manager.addEventMonitor(ImageLoadRecorder { _ in }, delivery: .queue(held.queue))
            defer { registration.remove() }
            _ = try await manager.image(for: ImageRequest(url: fixture.url("photo.jpg")))
            #expect(await changed.wait(upTo: .seconds(10)) { budget.inUse == 0 })
        }
    }

    @Test("loads sharing a run hold its budget bytes until the last of them has its result")
    func reservedUntilEveryLoadHasItsResult() async throws {
        try await withFixture { fixture in
            let spent = try await SpentBudget()
            let (budget, held) = (spent.budget, spent.held)
            let manager = fixture.manager { $0.manager.memoryBudget = budget }
            let request = ImageRequest(url: fixture.url("photo.jpg"))
            let awaited = Task { try await manager.image(for: request) }
            await spent.waitForWaiters(1)
            // Joins the run waiting for the budget; its result waits in its queue until
            // the test lets it run.
            let delivery = HeldQueue(label: "held-delivery")
            let queued = LoadLog()
            let token = manager.loadImage(with: request, delivery: .queue(delivery.queue), handler: queued.handler)
            #expect(manager.activeLoadCount == 1, "one run for both loads")
            held.release()
            _ = try await awaited.value
            #expect(budget.inUse > 0, "the queued load has yet to get the image")
            delivery.resume()
            #expect((try? await queued.result().get())?.image != nil)
            withExtendedLifetime(token) {}
            #expect(await spent.becomesIdle())
        }
    }

    @Test("a manager made while its budget has waiters holds its downloader at once, and lets go when it goes")
    func holdEndsWithTheManager() async throws {
        let spent = try await SpentBudget(capacity: 10)
        let (budget, held) = (spent.budget, spent.held)
        let waiter = Task { try await budget.reserve(1) }
        await spent.waitForWaiters(1)
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.manager.memoryBudget = budget
        var manager: ImageManager? = ImageManager(configuration: configuration)
        let queue = try downloadQueue(of: manager)
        #expect(queue.isHoldingStarts)
        manager = nil
        #expect(!queue.isHoldingStarts, "a downloader shared with others is not left held")
        held.release()
        try await waiter.value.release()
    }

    /// The queue of the manager's own downloader (the real `ImageDownloader`).
    private func downloadQueue(of manager: ImageManager?) throws -> DownloadQueue {
        try #require((manager?.downloader as? ImageDownloader)?.queue)
    }
}
