import Foundation
import Testing

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

/// The lifecycle's actions with results and requests reduced to what a test compares;
/// handles compare by identity.
enum Step: Equatable {
    case none
    case enqueue(DownloadPriority, attempt: Int)
    case raisePriority(QueuedOperation, DownloadPriority)
    case withdraw(QueuedOperation)
    case free(QueuedOperation)
    case modifyRequest(URL, attempt: Int)
    case startTransfer(URL, attempt: Int)
    case cancelTransfer(TransferTask)
    case pauseTransfer(TransferTask)
    case resumeTransfer(TransferTask)
    case cancelTask(Task<Void, Never>)
    case retry(after: Duration, status: Int?, attempt: Int, freeing: QueuedOperation)
    /// `attempts` of a success, or the failure's description.
    case end(String, release: DownloadOperation.StateMachine.Release)
    case endStopped(release: DownloadOperation.StateMachine.Release)

    init(_ action: DownloadOperation.StateMachine.Action) {
        switch action {
        case .none: self = .none
        case .enqueue(let priority, let attempt): self = .enqueue(priority, attempt: attempt)
        case .raisePriority(let entry, let priority): self = .raisePriority(entry, priority)
        case .withdraw(let entry): self = .withdraw(entry)
        case .free(let entry): self = .free(entry)
        case .modifyRequest(let request, let attempt): self = .modifyRequest(request.url, attempt: attempt)
        case .startTransfer(let request, let attempt): self = .startTransfer(request.url, attempt: attempt)
        case .cancelTransfer(let transfer): self = .cancelTransfer(transfer)
        case .pauseTransfer(let transfer): self = .pauseTransfer(transfer)
        case .resumeTransfer(let transfer): self = .resumeTransfer(transfer)
        case .cancelTask(let task): self = .cancelTask(task)
        case .retry(let delay, let error, let attempt, let entry):
            self = .retry(after: delay, status: error.statusCode, attempt: attempt, freeing: entry)
        case .end(.success(let result), let release): self = .end("success after \(result.attempts)", release: release)
        case .end(.failure(let error), let release): self = .end(error.description, release: release)
        case .endStopped(let release): self = .endStopped(release: release)
        }
    }
}

/// The lifecycle's state without its payloads.
enum Phase: Equatable {
    case idle, queued, modifying, transferring, cancellingTransfer, backingOff, held, finished

    init(_ state: DownloadOperation.StateMachine.State) {
        switch state {
        case .idle: self = .idle
        case .queued: self = .queued
        case .modifying: self = .modifying
        case .transferring: self = .transferring
        case .cancellingTransfer: self = .cancellingTransfer
        case .backingOff: self = .backingOff
        case .held: self = .held
        case .finished: self = .finished
        }
    }
}

/// Drives one lifecycle with plain values: no queue, no transport, no clock.
struct LifecycleDriver {
    var lifecycle: DownloadOperation.StateMachine
    let url = URL(string: "https://images.example/a.png")!
    private var nextID: UInt64 = 1
    private var pauses = SubscriberPauses()

    init(priority: DownloadPriority = .normal, modifiesRequests: Bool = false) {
        lifecycle = DownloadOperation.StateMachine(priority: priority, modifiesRequests: modifiesRequests)
    }

    var phase: Phase { Phase(lifecycle.state) }
    var request: TransportRequest { TransportRequest(url: url) }

    /// A queue entry of no queue: the lifecycle only passes it back in actions.
    mutating func entry() -> QueuedOperation {
        defer { nextID += 1 }
        return QueuedOperation(id: nextID, queue: nil, onCancel: {})
    }

    func transfer() -> TransferTask { TransferTask { _ in } }
    func task() -> Task<Void, Never> { Task {} }

    func success(attempts: Int) -> Result<DownloadResult, DownloadError> {
        let response = TransportResponse(url: url, statusCode: 200, headers: [:], httpVersion: .http1_1)
        let metrics = TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)
        return .success(DownloadResult(data: Data("ok".utf8), response: response, metrics: metrics, attempts: attempts))
    }

    func unavailable() -> Result<DownloadResult, DownloadError> {
        let response = TransportResponse(url: url, statusCode: 503, headers: [:], httpVersion: .http1_1)
        return .failure(.transport(TransportError(.httpStatus, "status 503", url: url, response: response)))
    }

    // Shortcuts that return the step.
    mutating func start() -> Step { Step(lifecycle.start()) }
    mutating func enqueued(_ entry: QueuedOperation, attempt: Int = 1, at priority: DownloadPriority = .normal) -> Step {
        Step(lifecycle.enqueued(entry, attempt: attempt, at: priority))
    }
    mutating func granted(_ entry: QueuedOperation, attempt: Int = 1) -> Step {
        Step(lifecycle.slotGranted(entry, attempt: attempt, request: request))
    }
    mutating func raise(_ priority: DownloadPriority) -> Step { Step(lifecycle.raisePriority(to: priority)) }
    mutating func modifierStarted(_ task: Task<Void, Never>, attempt: Int = 1) -> Step {
        Step(lifecycle.modifierStarted(task, attempt: attempt))
    }
    mutating func modifierFinished(_ outcome: Result<TransportRequest, DownloadError>, attempt: Int = 1) -> Step {
        Step(lifecycle.modifierFinished(attempt: attempt, outcome))
    }
    mutating func transferStarted(_ transfer: TransferTask, attempt: Int = 1) -> Step {
        Step(lifecycle.transferStarted(transfer, attempt: attempt))
    }
    mutating func completed(_ outcome: Result<DownloadResult, DownloadError>, attempt: Int = 1, retryDelay: Duration? = nil) -> Step {
        Step(lifecycle.transferCompleted(attempt: attempt, outcome, retryDelay: retryDelay))
    }
    mutating func waitStarted(_ task: Task<Void, Never>, attempt: Int = 1) -> Step { Step(lifecycle.waitStarted(task, attempt: attempt)) }
    mutating func waitEnded(attempt: Int = 1) -> Step { Step(lifecycle.waitEnded(attempt: attempt)) }
    mutating func stop() -> Step { Step(lifecycle.stop()) }
    /// Subscriber `id` joins, pauses, resumes or leaves: the step, and whether the
    /// download paused (`true`), resumed (`false`) or neither (`nil`).
    /// The subscribers' rule is kept here as the downloader's `CoalescedRuns` keeps it, and
    /// its answer is handed to the lifecycle.
    mutating func joined(_ id: UInt64) -> PauseStep { subscribers { $0.join(id) } }
    mutating func left(_ id: UInt64) -> PauseStep { subscribers { $0.leave(id) } }
    mutating func paused(_ id: UInt64) -> PauseStep { subscribers { $0.set(id, paused: true) } }
    mutating func resumed(_ id: UInt64) -> PauseStep { subscribers { $0.set(id, paused: false) } }

    private mutating func subscribers(_ change: (inout SubscriberPauses) -> Void) -> PauseStep {
        let wasPaused = pauses.wantsPause
        change(&pauses)
        guard pauses.wantsPause != wasPaused else { return PauseStep(.unchanged) }
        return PauseStep(lifecycle.setPaused(pauses.wantsPause))
    }

    /// Started, queued with `entry`, and transferring with `transfer` (attempt 1).
    mutating func transferring(_ entry: QueuedOperation, _ transfer: TransferTask) {
        _ = start()
        _ = enqueued(entry)
        _ = granted(entry)
        _ = transferStarted(transfer)
    }
}

@Suite("DownloadOperation.StateMachine: the download's states and the actions they ask for")
struct DownloadLifecycleTests {
    @Test("start queues attempt 1 at the request's priority, once")
    func start() {
        var driver = LifecycleDriver(priority: .high)
        #expect(driver.phase == .idle)
        #expect(driver.start() == .enqueue(.high, attempt: 1))
        #expect(driver.phase == .queued)
        #expect(driver.start() == .none)
    }

    @Test("without a request modifier: queued, slot granted, transferring, success ends it and frees the slot")
    func plainSuccess() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.start()
        #expect(driver.enqueued(entry) == .none)
        #expect(driver.granted(entry) == .startTransfer(driver.url, attempt: 1))
        #expect(driver.phase == .transferring)
        #expect(driver.transferStarted(transfer) == .none)
        #expect(driver.completed(driver.success(attempts: 1)) == .end("success after 1", release: .free(entry)))
        #expect(driver.phase == .finished)
    }

    @Test("with a request modifier: the modified request is sent; a rejection ends it and frees the slot")
    func modifier() {
        var driver = LifecycleDriver(modifiesRequests: true)
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        #expect(driver.granted(entry) == .modifyRequest(driver.url, attempt: 1))
        #expect(driver.phase == .modifying)
        #expect(driver.modifierStarted(driver.task()) == .none)
        let signed = URL(string: "https://images.example/a.png?sig=1")!
        #expect(driver.modifierFinished(.success(TransportRequest(url: signed))) == .startTransfer(signed, attempt: 1))
        #expect(driver.phase == .transferring)

        var rejecting = LifecycleDriver(modifiesRequests: true)
        let held = rejecting.entry()
        _ = rejecting.start()
        _ = rejecting.granted(held)
        #expect(
            rejecting.modifierFinished(.failure(.requestRejected(reason: "expired")))
                == .end("request rejected: expired", release: .free(held)))
        #expect(rejecting.phase == .finished)
    }

    @Test("a modifier that returns before its task is stored: the late task is kept no more")
    func modifierReturnsFirst() {
        var driver = LifecycleDriver(modifiesRequests: true)
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.granted(entry)
        #expect(driver.modifierFinished(.success(driver.request)) == .startTransfer(driver.url, attempt: 1))
        #expect(driver.modifierStarted(driver.task()) == .none)
        #expect(driver.phase == .transferring)
    }

    @Test("a lasting failure ends it with that failure; a transient one with a delay frees the slot and backs off")
    func failures() {
        var lasting = LifecycleDriver()
        let entry = lasting.entry()
        lasting.transferring(entry, lasting.transfer())
        #expect(lasting.completed(lasting.unavailable()) == .end("httpStatus: status 503 (\(lasting.url))", release: .free(entry)))

        var transient = LifecycleDriver()
        let first = transient.entry()
        transient.transferring(first, transient.transfer())
        #expect(
            transient.completed(transient.unavailable(), retryDelay: .milliseconds(500))
                == .retry(after: .milliseconds(500), status: 503, attempt: 1, freeing: first))
        #expect(transient.phase == .backingOff)
    }

    @Test("a delay is ignored for a failure that is not the transport's")
    func delayOnlyForTransport() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        driver.transferring(entry, driver.transfer())
        let rejected = Result<DownloadResult, DownloadError>.failure(.requestRejected(reason: "no"))
        #expect(driver.completed(rejected, retryDelay: .seconds(1)) == .end("request rejected: no", release: .free(entry)))
    }

    @Test("after the wait, attempt 2 is queued at the current priority and its result counts both attempts")
    func retry() {
        var driver = LifecycleDriver()
        let first = driver.entry()
        let second = driver.entry()
        driver.transferring(first, driver.transfer())
        _ = driver.completed(driver.unavailable(), retryDelay: .seconds(1))
        #expect(driver.waitStarted(driver.task()) == .none)
        #expect(driver.raise(.veryHigh) == .none, "nothing waits in the queue while backing off")
        #expect(driver.waitEnded() == .enqueue(.veryHigh, attempt: 2))
        #expect(driver.phase == .queued)
        #expect(driver.enqueued(second, attempt: 2, at: .veryHigh) == .none)
        #expect(driver.granted(second, attempt: 2) == .startTransfer(driver.url, attempt: 2))
        #expect(driver.completed(driver.success(attempts: 2), attempt: 2) == .end("success after 2", release: .free(second)))
    }

    @Test("a wait that ends before its task is stored still queues the next attempt once")
    func waitEndsFirst() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        driver.transferring(entry, driver.transfer())
        _ = driver.completed(driver.unavailable(), retryDelay: .zero)
        #expect(driver.waitEnded() == .enqueue(.normal, attempt: 2))
        #expect(driver.waitStarted(driver.task()) == .none)
        #expect(driver.waitEnded() == .none)
    }

    @Test("priority: a raise reaches a known waiting entry; one during add is applied when add returns; never lowered")
    func priority() {
        var driver = LifecycleDriver(priority: .low)
        let entry = driver.entry()
        _ = driver.start()
        #expect(driver.raise(.normal) == .none, "the entry is not known yet")
        #expect(driver.enqueued(entry, at: .low) == .raisePriority(entry, .normal))
        #expect(driver.raise(.high) == .raisePriority(entry, .high))
        #expect(driver.raise(.low) == .none)
        #expect(driver.lifecycle.priority == .high)
        _ = driver.granted(entry)
        #expect(driver.raise(.veryHigh) == .none, "a running attempt has no queue place")
    }

    @Test("the slot granted before add returned: the late entry changes nothing")
    func grantedBeforeAdd() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        #expect(driver.granted(entry) == .startTransfer(driver.url, attempt: 1))
        #expect(driver.enqueued(entry) == .none)
        #expect(driver.phase == .transferring)
    }

    @Test("a transfer that completes before start returns: its late handle changes nothing")
    func completedBeforeStartReturned() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.granted(entry)
        #expect(driver.completed(driver.success(attempts: 1)) == .end("success after 1", release: .free(entry)))
        #expect(driver.transferStarted(driver.transfer()) == .none)
    }

    // MARK: Stop in each state

    @Test("stop before start ends it with nothing to release; start then does nothing")
    func stopIdle() {
        var driver = LifecycleDriver()
        #expect(driver.stop() == .endStopped(release: .nothing))
        #expect(driver.start() == .none)
    }

    @Test("stop while queued withdraws the entry")
    func stopQueued() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        _ = driver.enqueued(entry)
        #expect(driver.stop() == .endStopped(release: .withdraw(entry)))
        #expect(driver.phase == .finished)
    }

    @Test("stop while queued, before add returned: the entry is withdrawn, or its slot freed, when it shows up")
    func stopQueuedBeforeAdd() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        _ = driver.start()
        #expect(driver.stop() == .endStopped(release: .nothing))
        #expect(driver.enqueued(entry) == .withdraw(entry))
        #expect(driver.granted(entry) == .free(entry))
    }

    @Test("stop while modifying cancels the modifier and frees the slot; a modifier stored later is cancelled")
    func stopModifying() {
        var driver = LifecycleDriver(modifiesRequests: true)
        let entry = driver.entry()
        let modifier = driver.task()
        _ = driver.start()
        _ = driver.granted(entry)
        _ = driver.modifierStarted(modifier)
        #expect(driver.stop() == .endStopped(release: .cancelModifier(modifier, freeing: entry)))
        #expect(driver.modifierFinished(.success(driver.request)) == .none, "its answer comes too late")

        var early = LifecycleDriver(modifiesRequests: true)
        let held = early.entry()
        let late = early.task()
        _ = early.start()
        _ = early.granted(held)
        #expect(early.stop() == .endStopped(release: .cancelModifier(nil, freeing: held)))
        #expect(early.modifierStarted(late) == .cancelTask(late))
    }

    @Test("stop while transferring cancels the transfer; its completion, whatever it says, ends it as stopped")
    func stopTransferring() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        driver.transferring(entry, transfer)
        #expect(driver.stop() == .cancelTransfer(transfer))
        #expect(driver.phase == .cancellingTransfer)
        #expect(driver.stop() == .none, "a second stop asks nothing more")
        #expect(driver.completed(driver.unavailable(), retryDelay: .seconds(1)) == .endStopped(release: .free(entry)))
        #expect(driver.phase == .finished)
    }

    @Test("stop before the transfer's handle arrived: the handle is cancelled when it does")
    func stopBeforeTransferHandle() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let transfer = driver.transfer()
        _ = driver.start()
        _ = driver.granted(entry)
        #expect(driver.stop() == .none)
        #expect(driver.transferStarted(transfer) == .cancelTransfer(transfer))
        #expect(driver.completed(driver.success(attempts: 1)) == .endStopped(release: .free(entry)))
    }

    @Test("stop while backing off cancels the wait; a wait stored later is cancelled")
    func stopBackingOff() {
        var driver = LifecycleDriver()
        let wait = driver.task()
        driver.transferring(driver.entry(), driver.transfer())
        _ = driver.completed(driver.unavailable(), retryDelay: .seconds(1))
        _ = driver.waitStarted(wait)
        #expect(driver.stop() == .endStopped(release: .cancelWait(wait)))
        #expect(driver.waitEnded() == .none)

        var early = LifecycleDriver()
        let late = early.task()
        early.transferring(early.entry(), early.transfer())
        _ = early.completed(early.unavailable(), retryDelay: .seconds(1))
        #expect(early.stop() == .endStopped(release: .nothing))
        #expect(early.waitStarted(late) == .cancelTask(late))
    }

    // MARK: After the end

    @Test("after the end every event is stale: it changes nothing and releases only what it brought")
    func lateEvents() {
        var driver = LifecycleDriver()
        let entry = driver.entry()
        let late = driver.entry()
        let modifier = driver.task()
        let wait = driver.task()
        driver.transferring(entry, driver.transfer())
        _ = driver.completed(driver.success(attempts: 1))
        #expect(driver.phase == .finished)
        #expect(driver.start() == .none)
        #expect(driver.stop() == .none)
        #expect(driver.raise(.veryHigh) == .none)
        #expect(driver.enqueued(late, attempt: 2) == .withdraw(late))
        #expect(driver.granted(late, attempt: 2) == .free(late))
        #expect(driver.modifierStarted(modifier) == .cancelTask(modifier))
        #expect(driver.modifierFinished(.success(driver.request)) == .none)
        #expect(driver.transferStarted(driver.transfer()) == .none)
        #expect(driver.completed(driver.success(attempts: 1)) == .none)
        #expect(driver.waitStarted(wait) == .cancelTask(wait))
        #expect(driver.waitEnded() == .none)
        #expect(driver.phase == .finished)
    }

    @Test("events of an earlier attempt change nothing")
    func staleAttempt() {
        var driver = LifecycleDriver()
        let first = driver.entry()
        let second = driver.entry()
        let transfer = driver.transfer()
        driver.transferring(first, transfer)
        _ = driver.completed(driver.unavailable(), retryDelay: .seconds(1))
        _ = driver.waitEnded()
        _ = driver.enqueued(second, attempt: 2)
        #expect(driver.enqueued(first, attempt: 1) == .none)
        #expect(driver.transferStarted(transfer, attempt: 1) == .none)
        #expect(driver.completed(driver.success(attempts: 1), attempt: 1) == .none)
        #expect(driver.waitEnded(attempt: 1) == .none)
        #expect(driver.phase == .queued)
        #expect(driver.stop() == .endStopped(release: .withdraw(second)))
    }
}

/// A pause change reduced to what a test compares.
struct PauseStep: Equatable {
    var paused: Bool?
    var step: Step

    init(paused: Bool?, _ step: Step) {
        self.paused = paused
        self.step = step
    }

    init(_ change: DownloadOperation.StateMachine.PauseChange) {
        self.init(paused: change.paused, Step(change.action))
    }

    static var unchanged: PauseStep { PauseStep(paused: nil, .none) }
}
