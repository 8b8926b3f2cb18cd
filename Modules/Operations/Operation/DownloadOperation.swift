import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore
import WebImageResources

/// Performs the I/O of one download's ``DownloadOperation.StateMachine``: queues its attempts, runs the
/// request modifier, starts and cancels transfers, waits between attempts on the
/// downloader's clock, and hands the single result to the registry.
///
/// It is the one download behind every subscriber of a key (SDWebImage's downloader
/// operation). Every decision is the lifecycle's: each event goes through it under the
/// lock, and the action it returns is performed here after the lock is released. The
/// download ends exactly once, by the first of: the transfer's completion, a rejection,
/// or a stop (every subscriber left, the downloader cancelled everything, or it was
/// dropped while the download waited in a queue that starts nothing more).
final class DownloadOperation: CoalescedRun {
    let key: DownloadKey
    let request: DownloadRequest
    private let context: DownloaderContext
    private let lifecycle: Locked<DownloadOperation.StateMachine>
    /// The registry's run of the key this operation serves (set by ``start(generation:)``):
    /// it publishes only to that run, so after every subscriber left, a newer operation's
    /// subscribers for the same key never see this one's progress or its cancellation.
    private let generation = Atomic<UInt64>(0)
    /// Which kept bytes this download may continue; `nil` when it never resumes (no
    /// store configured, or a request that cannot: see ``PartialDownloadIdentity``).
    private let partialIdentity: PartialDownloadIdentity?
    /// The kept bytes between attempts.
    private let partial = Locked(PartialHold())
    /// The current attempt's progress, for a snapshot: bytes received, and expected (-1
    /// while unknown).
    private let received = Atomic<Int64>(0)
    private let expected = Atomic<Int64>(-1)

    init(key: DownloadKey, request: DownloadRequest, context: DownloaderContext) {
        self.key = key
        self.request = request
        self.context = context
        self.lifecycle = Locked(
            DownloadOperation.StateMachine(
                priority: request.effectivePriority, modifiesRequests: context.configuration.requestModifier != nil))
        self.partialIdentity = context.configuration.partialDownloads == nil ? nil : PartialDownloadIdentity(request)
    }

    /// The retry policy that applies: the request's, the downloader's, or the default
    /// one when the request opts in and the downloader does not retry.
    var retryPolicy: RetryPolicy {
        if let own = request.retryPolicy { return own }
        let configured = context.configuration.retryPolicy
        if request.options.contains(.retryTransientFailures), configured.maximumRetries == 0 { return .default }
        return configured
    }

    /// Where the download is now, shared by `subscribers`.
    func snapshot(subscribers: Int) -> DownloadSnapshot {
        let (phase, attempt, isPaused, priority) = lifecycle.withLock { machine in
            let (phase, attempt) = machine.phase
            return (phase, attempt, machine.isPaused, machine.priority)
        }
        let expected = expected.load(ordering: .relaxed)
        return DownloadSnapshot(
            key: key, phase: phase, isPaused: isPaused, attempt: attempt, received: received.load(ordering: .relaxed),
            expected: expected < 0 ? nil : expected, subscribers: subscribers, priority: priority)
    }

    // MARK: Events from the downloader

    /// Starts the operation for the registry's run `generation` of its key.
    func start(generation: UInt64) {
        self.generation.store(generation, ordering: .relaxed)
        takeKeptBytes()
        perform(lifecycle.withLock { $0.start() })
    }

    /// A subscriber asked with a higher `priority`: a waiting download moves up.
    func priorityRaised(to priority: DownloadPriority) {
        perform(lifecycle.withLock { $0.raisePriority(to: priority) })
    }

    /// Stops the work: nobody wants it any more, or everything is cancelled. Subscribers
    /// still present get ``DownloadError/cancelled``. With `keepingResumableData`, what
    /// the transfer received is kept for the next download of the resource (the first
    /// stop decides).
    func stop(keepingResumableData: Bool = false) {
        partial.withLock { hold in
            if hold.keepsOnStop == nil { hold.keepsOnStop = keepingResumableData }
        }
        perform(lifecycle.withLock { $0.stop() })
    }

    /// Stops the download if it holds no queue slot, when nothing will start its next
    /// attempt (see ``DownloaderContext/startsNoMore``); its subscribers get
    /// ``DownloadError/cancelled``. One holding a slot goes on.
    func stopUnlessHoldingSlot() {
        perform(lifecycle.withLock { $0.stopUnlessHoldingSlot() })
    }

    /// The last subscriber left: stops, keeping what arrived if that subscriber asked.
    func abandoned(keepingResumableData: Bool) {
        stop(keepingResumableData: keepingResumableData)
    }

    // MARK: Pausing (the rule is SubscriberPauses', applied by the downloader's runs)

    func pauseChanged(to paused: Bool) {
        changePause { $0.setPaused(paused) }
    }

    private func changePause(_ transition: (inout DownloadOperation.StateMachine) -> DownloadOperation.StateMachine.PauseChange) {
        let change = lifecycle.withLock { lifecycle in
            var change = transition(&lifecycle)
            change.action = forwardingPause(change.action)
            return change
        }
        guard let paused = change.paused else { return }
        // Told before the action: a resume's enqueue may start the transfer at once.
        context.notify { [key] in paused ? $0.downloadDidPause(key) : $0.downloadDidResume(key) }
        perform(change.action)
    }

    /// Pauses or resumes the transfer here, under the lifecycle's lock, so that racing
    /// pauses and resumes reach the transfer in the order the lifecycle took them (the
    /// one exception to "act after the lock": `TransferTask` only posts a command).
    private func forwardingPause(_ action: DownloadOperation.StateMachine.Action) -> DownloadOperation.StateMachine.Action {
        switch action {
        case .pauseTransfer(let transfer):
            transfer.pause()
            return .none
        case .resumeTransfer(let transfer):
            transfer.resume()
            return .none
        default:
            return action
        }
    }

    // MARK: Events from the transfer (on the transport's thread)

    func didReceive(_ response: TransportResponse) -> Result<TransportResponse, DownloadError> {
        context.notify { [key] in $0.download(key, didReceive: response) }
        guard let modifier = context.configuration.responseModifier else { return .success(response) }
        do {
            return .success(try modifier(response))
        } catch {
            return .failure(.responseRejected(reason: String(describing: error), response: response))
        }
    }

    /// The zero-byte progress of an accepted response head (SDWebImage's): subscribers
    /// learn the expected size before the first body byte, counted as the transport's own
    /// progress counts it.
    func didAccept(_ response: TransportResponse) {
        didReceive(TransferProgress(received: 0, expected: response.expectedBodyLength))
    }

    func didReceive(_ progress: TransferProgress) {
        received.store(progress.received, ordering: .relaxed)
        expected.store(progress.expected ?? -1, ordering: .relaxed)
        context.registry.publishProgress(
            received: progress.received, expected: progress.expected, for: key, generation: generation.load(ordering: .relaxed))
    }

    /// The body a progressive download received so far, for its subscribers.
    func didReceive(_ body: ReceivedBody) {
        context.registry.publishPartial(body, for: key, generation: generation.load(ordering: .relaxed))
    }

    /// The transfer of attempt `attempt` completed with `outcome`; `update` says what
    /// becomes of the kept bytes.
    func attemptDidEnd(_ attempt: Int, outcome: Result<DownloadResult, DownloadError>, update: AttemptResume.Update = .unchanged) {
        // Before the lifecycle hears of it: a retry's request is made from what is kept.
        partial.withLock { $0.apply(update) }
        var retryDelay: Duration?
        if case .failure(.transport(let error)) = outcome {
            retryDelay = retryPolicy.delay(beforeRetry: attempt, after: error, method: .get, random: Double.random(in: 0..<1))
        }
        perform(lifecycle.withLock { $0.transferCompleted(attempt: attempt, outcome, retryDelay: retryDelay) })
    }

    /// The transfer of `attempt` asked to resume, and the answer could not be appended:
    /// the kept bytes go, and the attempt asks again for the whole body.
    func restartAttempt(_ attempt: Int) {
        partial.withLock { $0.apply(.discard) }
        let request = makeTransportRequest()
        perform(lifecycle.withLock { $0.transferRestarted(attempt: attempt, request: request) })
    }

    // MARK: Actions

    private func perform(_ action: DownloadOperation.StateMachine.Action) {
        switch action {
        case .none:
            break
        case .enqueue(let priority, let attempt):
            enqueue(priority: priority, attempt: attempt)
        case .raisePriority(let entry, let priority):
            entry.raisePriority(to: priority)
        case .withdraw(let entry):
            entry.cancel()
        case .free(let entry):
            entry.finish()
        case .modifyRequest(let request, let attempt):
            modify(request, attempt: attempt)
        case .startTransfer(let request, let attempt):
            send(request, attempt: attempt)
        case .cancelTransfer(let transfer):
            transfer.cancel()
        case .pauseTransfer(let transfer):
            transfer.pause()
        case .resumeTransfer(let transfer):
            transfer.resume()
        case .cancelTask(let task):
            task.cancel()
        case .retry(let delay, let error, let attempt, let entry):
            entry.finish()
            context.notify { [key] in $0.download(key, willRetryAfter: delay, error: error, attempt: attempt) }
            wait(delay, after: attempt)
        case .end(let result, let release):
            end(result, stopped: false, release: release)
        case .endStopped(let release):
            end(.failure(.cancelled), stopped: true, release: release)
        }
    }

    private func enqueue(priority: DownloadPriority, attempt: Int) {
        // The queue may grant the slot before `add` returns; the lifecycle takes both
        // events in either order.
        let entry = context.queue.add(priority: priority) { [self] entry in
            let request = makeTransportRequest()
            perform(lifecycle.withLock { $0.slotGranted(entry, attempt: attempt, request: request) })
        }
        perform(lifecycle.withLock { $0.enqueued(entry, attempt: attempt, at: priority) })
        // Queued (a retry, a resume) after the downloader went with its queue stopped:
        // nobody will give it a slot. Checked after the lifecycle took the entry, so that
        // the downloader's sweep sees it as waiting when this check misses the downloader.
        if context.startsNoMore { stopUnlessHoldingSlot() }
    }

    private func modify(_ request: TransportRequest, attempt: Int) {
        guard let modifier = context.configuration.requestModifier else {
            perform(lifecycle.withLock { $0.modifierFinished(attempt: attempt, .success(request)) })
            return
        }
        // On the library's threads, ahead of ordinary work (as the transport's challenges),
        // not queued behind the application's tasks on Swift's shared pool.
        let task = Task(executorPreference: WorkerPool.shared, priority: .high) { [self] in
            let outcome: Result<TransportRequest, DownloadError>
            do {
                if let modified = try await modifier(request) {
                    outcome = .success(modified)
                } else {
                    outcome = .failure(.requestRejected(reason: "the request modifier returned nil"))
                }
            } catch {
                outcome = .failure(.requestRejected(reason: String(describing: error)))
            }
            perform(lifecycle.withLock { $0.modifierFinished(attempt: attempt, outcome) })
        }
        perform(lifecycle.withLock { $0.modifierStarted(task, attempt: attempt) })
    }

    private func send(_ request: TransportRequest, attempt: Int) {
        context.notify { [key] in $0.downloadDidStart(key, request: request, attempt: attempt) }
        let resumed = partial.withLock { $0.kept }.flatMap { request.resumes($0) ? $0 : nil }
        // The progress at the start of each attempt (SDWebImage's zero-byte one): a retry
        // starts the body again from zero, or from the kept bytes it asks to continue.
        didReceive(TransferProgress(received: resumed?.offset ?? 0, expected: resumed?.completeLength))
        let delegate = AttemptDelegate(
            operation: self, attempt: attempt, handsOutBody: self.request.options.contains(.progressive),
            resume: AttemptResume(identity: partialIdentity, resumed: resumed))
        let transfer =
            context.configuration.attemptPerformer?.performAttempt(
                request, number: attempt, key: key, transport: context.transport, delegate: delegate)
            ?? context.transport.start(request, delegate: delegate)
        // A download paused meanwhile pauses its new transfer at once.
        perform(lifecycle.withLock { forwardingPause($0.transferStarted(transfer, attempt: attempt)) })
    }

    /// Waits `delay` on the downloader's clock, then queues the next attempt. A stop
    /// cancels the wait.
    private func wait(_ delay: Duration, after attempt: Int) {
        let clock = context.configuration.clock
        let wait = Task(executorPreference: WorkerPool.shared, priority: .high) { [self] in
            do {
                try await Task.sleep(for: delay, clock: clock)
            } catch {
                return  // cancelled: the stop already ended the download
            }
            perform(lifecycle.withLock { $0.waitEnded(attempt: attempt) })
        }
        perform(lifecycle.withLock { $0.waitStarted(wait, attempt: attempt) })
    }

    /// Releases what the download held and completes every subscriber still present;
    /// the registry forgets the run with them.
    private func end(_ result: Result<DownloadResult, DownloadError>, stopped: Bool, release: DownloadOperation.StateMachine.Release) {
        switch release {
        case .nothing: break
        case .withdraw(let entry): entry.cancel()
        case .free(let entry): entry.finish()
        case .cancelModifier(let modifier, let entry):
            modifier?.cancel()
            entry.finish()
        case .cancelWait(let wait): wait.cancel()
        }
        leaveKeptBytes(succeeded: (try? result.get()) != nil, stopped: stopped)
        let subscribers = context.runs.finish(self, generation: generation.load(ordering: .relaxed), with: result)
        if stopped { context.notify { [key] in $0.downloadDidStop(key) } }
        context.notify { [key] in $0.download(key, didFinish: result, subscribers: subscribers) }
    }

    // MARK: Building an attempt

    func makeTransportRequest() -> TransportRequest {
        var transportRequest = TransportRequest(url: request.url, headers: request.headers)
        transportRequest.timeouts = TransportRequest.Timeouts(
            connect: context.configuration.connectTimeout,
            total: request.timeout ?? context.configuration.timeout,
            stall: context.configuration.stallTimeout)
        transportRequest.maximumBodySize = context.configuration.maximumBodySize
        transportRequest.allowsInvalidCertificates = request.options.contains(.allowInvalidCertificates)
        transportRequest.credential = request.credential
        transportRequest.urlPolicy = request.urlPolicy
        transportRequest.usesCookies = request.options.contains(.handleCookies)
        if request.options.contains(.revalidate) { transportRequest.validators = request.validators }
        if let kept = partial.withLock({ $0.kept }) { transportRequest.resume(kept) }
        return transportRequest
    }

    // MARK: Kept bytes

    /// Takes what an earlier download of the resource kept, if anything.
    private func takeKeptBytes() {
        guard let partialIdentity, let store = context.configuration.partialDownloads,
            let kept = store.take(partialIdentity)
        else { return }
        partial.withLock { hold in
            hold.kept = kept
            hold.isFromStore = true
        }
    }

    /// Hands the store what the download leaves behind (written off this thread).
    private func leaveKeptBytes(succeeded: Bool, stopped: Bool) {
        let left = partial.withLock { hold in
            defer { hold.kept = nil }
            return hold.leftBehind(succeeded: succeeded, stopped: stopped)
        }
        if let left { context.configuration.partialDownloads?.keep(left) }
    }
}
