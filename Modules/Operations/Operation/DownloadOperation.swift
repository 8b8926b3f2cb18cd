import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// The one download behind every subscriber of a key (SDWebImage's downloader operation):
/// its attempts in the queue, the request modifier, the transfer, the retries with
/// backoff, the partial images, and the single result it hands to the registry.
///
/// It ends exactly once (``end(_:)``), by the first of: the transfer's completion, a
/// rejection, or a stop (every subscriber left, or the downloader cancelled everything).
final class DownloadOperation: Sendable {
    /// Where the current attempt is; a stop acts on it.
    enum Phase {
        case waiting, modifying, transferring, backingOff, ended
    }

    private struct State {
        var phase = Phase.waiting
        var isStopped = false
        var attempt = 0
        var priority: DownloadPriority
        var queued: QueuedOperation?
        var transfer: TransferTask?
        var modifier: Task<Void, Never>?
        /// The current attempt's partial-image maker: a retry starts the body again, so
        /// it starts a new one.
        var feeder: ProgressiveFeeder?
    }

    let key: DownloadKey
    let request: DownloadRequest
    private let context: DownloaderContext
    private let onEnd: @Sendable (DownloadOperation) -> Void
    private let state: Locked<State>
    /// The registry's run of the key this operation serves (set by ``start(generation:)``):
    /// it publishes only to that run, so after every subscriber left, a newer operation's
    /// subscribers for the same key never see this one's progress or its cancellation.
    private let generation = Atomic<UInt64>(0)

    init(key: DownloadKey, request: DownloadRequest, context: DownloaderContext, onEnd: @escaping @Sendable (DownloadOperation) -> Void) {
        self.key = key
        self.request = request
        self.context = context
        self.onEnd = onEnd
        self.state = Locked(State(priority: request.effectivePriority))
    }

    /// A fresh partial-image maker for a progressive download, else `nil`.
    private func makeFeeder() -> ProgressiveFeeder? {
        guard request.options.contains(.progressive), !context.configuration.progressiveDecoders.isEmpty else { return nil }
        let registry = context.registry
        return ProgressiveFeeder(
            decoders: context.configuration.progressiveDecoders, options: request.progressiveDecodeOptions,
            publish: { [key, generation = generation.load(ordering: .relaxed)] image in
                registry.publishPartial(image, for: key, generation: generation)
            })
    }

    /// The retry policy that applies: the request's, the downloader's, or the default
    /// one when the request opts in and the downloader does not retry.
    var retryPolicy: RetryPolicy {
        if let own = request.retryPolicy { return own }
        let configured = context.configuration.retryPolicy
        if request.options.contains(.retryTransientFailures), configured.maximumRetries == 0 { return .default }
        return configured
    }

    // MARK: Queue

    /// Starts the operation for the registry's run `generation` of its key.
    func start(generation: UInt64) {
        self.generation.store(generation, ordering: .relaxed)
        enqueue()
    }

    /// Queues the next attempt.
    func enqueue() {
        let priority = state.withLock { state -> DownloadPriority? in
            guard !state.isStopped else { return nil }
            state.phase = .waiting
            return state.priority
        }
        guard let priority else { return }
        // The queue may start the attempt before `add` returns: the attempt keeps its
        // own handle, this one is kept only for a download still waiting.
        let queued = context.queue.add(priority: priority) { [self] queued in startAttempt(queued) }
        let (stopped, current) = state.withLock { state -> (Bool, DownloadPriority) in
            if state.phase == .waiting, state.queued == nil { state.queued = queued }
            return (state.isStopped, state.priority)
        }
        if stopped { queued.cancel() }
        // A joiner raised the priority while this was being queued.
        if current > priority { queued.raisePriority(to: current) }
    }

    /// A new subscriber asked with `priority`: a waiting download moves up.
    func raisePriority(to priority: DownloadPriority) {
        let queued = state.withLock { state -> QueuedOperation? in
            guard priority > state.priority else { return nil }
            state.priority = priority
            return state.queued
        }
        queued?.raisePriority(to: priority)
    }

    /// Stops the work: nobody wants it any more, or everything is cancelled. Subscribers
    /// still present get ``DownloadError/cancelled``.
    func stop() {
        let action = state.withLock { state -> (QueuedOperation?, TransferTask?, Bool) in
            guard !state.isStopped, state.phase != .ended else { return (nil, nil, false) }
            state.isStopped = true
            state.modifier?.cancel()
            // A transfer ends the operation through its completion; the other phases end here.
            return (state.queued, state.transfer, state.phase != .transferring)
        }
        action.0?.cancel()
        action.1?.cancel()
        if action.2 { end(.failure(.cancelled)) }
    }

    // MARK: Attempts

    private func startAttempt(_ queued: QueuedOperation) {
        let feeder = makeFeeder()
        let started = state.withLock { state -> (Int, ProgressiveFeeder?)? in
            guard !state.isStopped, state.phase == .waiting else { return nil }
            state.queued = queued
            state.attempt += 1
            state.phase = context.configuration.requestModifier == nil ? .transferring : .modifying
            defer { state.feeder = feeder }
            return (state.attempt, state.feeder)
        }
        guard let (attempt, previousFeeder) = started else {
            queued.finish()
            return
        }
        previousFeeder?.close()
        let transportRequest = makeTransportRequest()
        guard let modifier = context.configuration.requestModifier else {
            send(transportRequest, attempt: attempt, queued: queued, feeder: feeder)
            return
        }
        let task = Task { [self] in
            let outcome: Result<TransportRequest?, any Error>
            do { outcome = .success(try await modifier(transportRequest)) } catch { outcome = .failure(error) }
            let proceed = state.withLock { state -> Bool in
                guard !state.isStopped, state.phase == .modifying else { return false }
                state.modifier = nil
                if case .success(.some) = outcome { state.phase = .transferring }
                return true
            }
            guard proceed else { return }  // stop() ended it
            switch outcome {
            case .success(.some(let modified)): send(modified, attempt: attempt, queued: queued, feeder: feeder)
            case .success(.none): end(.failure(.requestRejected(reason: "the request modifier returned nil")))
            case .failure(let error): end(.failure(.requestRejected(reason: String(describing: error))))
            }
        }
        state.withLock { state in if state.phase == .modifying { state.modifier = task } }
    }

    private func send(_ request: TransportRequest, attempt: Int, queued: QueuedOperation, feeder: ProgressiveFeeder?) {
        context.notify { [key] in $0.downloadDidStart(key, request: request, attempt: attempt) }
        let delegate = AttemptDelegate(operation: self, attempt: attempt, queued: queued, feeder: feeder)
        let transfer = context.transport.start(request, delegate: delegate)
        let stopped = state.withLock { state -> Bool in
            if state.phase == .transferring { state.transfer = transfer }
            return state.isStopped
        }
        if stopped { transfer.cancel() }
    }

    func makeTransportRequest() -> TransportRequest {
        var transportRequest = TransportRequest(url: request.url, headers: request.headers)
        transportRequest.timeouts.total = request.timeout ?? context.configuration.timeout
        transportRequest.maximumBodySize = context.configuration.maximumBodySize
        transportRequest.allowsInvalidCertificates = request.options.contains(.allowInvalidCertificates)
        transportRequest.credential = request.credential
        if request.options.contains(.revalidate) { transportRequest.validators = request.validators }
        return transportRequest
    }

    // MARK: Transfer events (on the transport's thread)

    func didReceive(_ response: TransportResponse) -> Result<TransportResponse, DownloadError> {
        context.notify { [key] in $0.download(key, didReceive: response) }
        guard let modifier = context.configuration.responseModifier else { return .success(response) }
        do {
            return .success(try modifier(response))
        } catch {
            return .failure(.responseRejected(reason: String(describing: error), response: response))
        }
    }

    func didReceive(_ progress: TransferProgress) {
        context.registry.publishProgress(
            received: progress.received, expected: progress.expected, for: key, generation: generation.load(ordering: .relaxed))
    }

    func attemptDidEnd(
        _ attempt: Int, queued: QueuedOperation, outcome: Result<(TransportResponse, Data), DownloadError>, metrics: TransferMetrics
    ) {
        switch outcome {
        case .success(let (response, body)):
            end(.success(DownloadResult(data: body, response: response, metrics: metrics, attempts: attempt)))
        case .failure(.transport(let error)):
            guard let delay = retryPolicy.delay(beforeRetry: attempt, after: error, method: .get, random: Double.random(in: 0..<1)),
                  scheduleRetry(after: delay, queued: queued)
            else {
                end(.failure(.transport(error)))
                return
            }
            context.notify { [key] in $0.download(key, willRetryAfter: delay, error: error, attempt: attempt) }
        case .failure(let error):
            end(.failure(state.withLock { $0.isStopped } ? .cancelled : error))
        }
    }

    /// Frees the slot and queues the next attempt after `delay`. `false` when stopped.
    private func scheduleRetry(after delay: Duration, queued: QueuedOperation) -> Bool {
        let scheduled = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            state.phase = .backingOff
            state.transfer = nil
            state.queued = nil
            return true
        }
        guard scheduled else { return false }
        queued.finish()
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            // A stop meanwhile ended the operation: nothing to resume.
            guard state.withLock({ $0.phase == .backingOff && !$0.isStopped }) else { return }
            enqueue()
        }
        return true
    }

    // MARK: The end

    /// Ends the operation once: frees its slot, forgets it, and completes every
    /// subscriber still present.
    func end(_ result: Result<DownloadResult, DownloadError>) {
        let ending = state.withLock { state -> (QueuedOperation?, ProgressiveFeeder?, Bool)? in
            guard state.phase != .ended else { return nil }
            state.phase = .ended
            state.transfer = nil
            state.modifier = nil
            defer {
                state.queued = nil
                state.feeder = nil
            }
            return (state.queued, state.feeder, state.isStopped)
        }
        guard let (queued, feeder, stopped) = ending else { return }
        feeder?.close()
        queued?.finish()
        onEnd(self)
        let final: Result<DownloadResult, DownloadError> = stopped ? .failure(.cancelled) : result
        let subscribers = context.registry.finish(key, generation: generation.load(ordering: .relaxed), with: final)
        if stopped { context.notify { [key] in $0.downloadDidStop(key) } }
        context.notify { [key] in $0.download(key, didFinish: final, subscribers: subscribers) }
    }
}
