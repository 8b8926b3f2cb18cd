import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// One run of the pipeline for every subscriber of an ``ImageLoadKey``: disk ->
/// download -> decode -> transform -> store, then one result for them all.
///
/// It is a run of the manager's ``CoalescedRuns``, which decides when it starts, pauses,
/// moves up and stops. It runs as a Swift task. When its last subscriber leaves, it is
/// abandoned: the task is cancelled, which is checked between stages and cancels the
/// download token (so the transfer stops when no other load shares it), and nothing
/// more is stored. It publishes only to its own run of the key (``start(generation:)``),
/// so a new load that already owns the key never hears from it.
///
/// Its loads' pause rule applies to the run's download token: paused while every load
/// of the run still present has paused; the downloader applies the same rule between
/// runs that share a transfer.
final class ImageLoadTask: CoalescedRun {
    typealias Runs = CoalescedRuns<ImageLoadTask, DecodedImage, ImageResponse, ImageLoadError>

    let key: ImageLoadKey
    let request: ImageRequest
    private let stages: LoadStages
    private let runs: Runs
    private let task = Locked<Task<Void, Never>?>(nil)
    private let abandoned = Atomic<Bool>(false)
    private let generation = Atomic<UInt64>(0)
    /// A load that takes progress events joined: until one does, the download's progress
    /// is not published (see `ImageManager.subscribe`). Never cleared: a run whose
    /// progress-taking load left publishes to the others.
    private let publishesProgress = Atomic<Bool>(false)
    /// The loads' pause and the run's priority, and the download they apply to once it
    /// started.
    private let control: Locked<Control>
    /// For a snapshot: the stage (``ImageLoadSnapshot/Stage``'s raw value) and the
    /// download's progress (expected -1 while unknown).
    private let stage = Atomic<UInt8>(ImageLoadSnapshot.Stage.starting.rawValue)
    private let received = Atomic<Int64>(0)
    private let expected = Atomic<Int64>(-1)

    private struct Control {
        var paused = false
        var download: DownloadToken?
        /// The highest priority of the loads that joined: the run's.
        var priority: DownloadPriority
        /// The priority the download was asked at, once it was.
        var downloadAskedAt: DownloadPriority?
    }

    init(key: ImageLoadKey, request: ImageRequest, stages: LoadStages, runs: Runs) {
        self.key = key
        self.request = request
        self.stages = stages
        self.runs = runs
        self.control = Locked(Control(priority: request.options.queuePriority))
    }

    /// Starts the run for the registry's run `generation` of the key.
    func start(generation: UInt64) {
        self.generation.store(generation, ordering: .relaxed)
        let priority = control.withLock { $0.priority }
        // On the manager's executor: the run's disk reads, decodes and transforms stay off
        // the cooperative pool.
        let task = Task(executorPreference: stages.executor, priority: priority.taskPriority) { await self.run() }
        let keep = self.task.withLock { held -> Bool in
            guard !abandoned.load(ordering: .relaxed) else { return false }
            held = task
            return true
        }
        if !keep { task.cancel() }
        // A load that joined while the task was being made.
        let now = control.withLock { $0.priority }
        if now > priority { Self.escalate(task, to: now) }
    }

    /// A load of a higher `priority` than the run's joined: the run moves up at every
    /// stage it has not passed. Its task's priority is escalated (its next jobs on the
    /// worker pool, and its place among the memory budget's waiters, which listens for
    /// escalation), and so is the download's place in the downloader's queue.
    func priorityRaised(to priority: DownloadPriority) {
        let (raised, download) = control.withLock { state -> (Bool, DownloadToken?) in
            guard priority > state.priority else { return (false, nil) }
            state.priority = priority
            return (true, state.download)
        }
        guard raised else { return }
        download?.raisePriority(to: priority)
        if let task = task.withLock({ $0 }) { Self.escalate(task, to: priority) }
    }

    private static func escalate(_ task: Task<Void, Never>, to priority: DownloadPriority) {
        if #available(macOS 26.0, *) { task.escalatePriority(to: priority.taskPriority) }
    }

    /// The manager is shutting down and the grace period is over: the run stops as if
    /// cancelled, and its loads complete with `.cancelled`.
    func cancelForShutdown() {
        task.withLock { $0 }?.cancel()
    }

    /// The last load left: the task is cancelled, and with it the download (told to keep
    /// what it received when that load asked).
    func abandoned(keepingResumableData: Bool) {
        abandoned.store(true, ordering: .relaxed)
        if keepingResumableData, let download = control.withLock({ $0.download }) {
            // Before the task's cancellation, whose plain cancel of the token then finds
            // the subscriber gone.
            download.cancel(keepingResumableData: true)
        }
        let task = self.task.withLock { held in
            defer { held = nil }
            return held
        }
        task?.cancel()
    }

    /// A load that takes progress events joined the run.
    func takesProgress() {
        publishesProgress.store(true, ordering: .relaxed)
    }

    private var isAbandoned: Bool { abandoned.load(ordering: .relaxed) }

    /// Where the run is now, shared by `loads`.
    func snapshot(loads: Int) -> ImageLoadSnapshot {
        let expected = expected.load(ordering: .relaxed)
        return ImageLoadSnapshot(
            key: key, url: request.url,
            stage: ImageLoadSnapshot.Stage(rawValue: stage.load(ordering: .relaxed)) ?? .starting,
            isPaused: control.withLock { $0.paused }, received: received.load(ordering: .relaxed),
            expected: expected < 0 ? nil : expected, loads: loads)
    }

    private func enter(_ stage: ImageLoadSnapshot.Stage) {
        self.stage.store(stage.rawValue, ordering: .relaxed)
    }

    /// The run's priority now: the highest any of its loads asked.
    private var priority: DownloadPriority { control.withLock { $0.priority } }

    private func run() async {
        stages.writes.loadStarted()
        defer { stages.writes.loadEnded() }
        let result = await pipeline()
        switch result {
        case .success: stages.failedURLs.remove(request.dataKey)
        case .failure(let error): if error.isPermanent { stages.failedURLs.insert(request.dataKey) }
        }
        task.withLock { $0 = nil }
        let startingLoad = stages.events.load.id
        runs.finish(
            self, generation: generation.load(ordering: .relaxed),
            with: result.map { response in
                var response = response
                response.startingLoad = startingLoad
                return response
            })
    }

    // MARK: Pausing

    /// Every load of the run paused, or one resumed. Under the runs' lock, so that racing
    /// changes reach the download in order (the token only records the wish and hands it
    /// on).
    func pauseChanged(to paused: Bool) {
        control.withLock { state in
            state.paused = paused
            guard let download = state.download else { return }
            if paused { download.pause() } else { download.resume() }
        }
    }

    /// The download began: paused at once when every load paused before it did.
    private func downloadBegan(_ download: DownloadToken) {
        control.withLock { state in
            state.download = download
            if state.paused { download.pause() }
            // A load that joined while the download was being asked for.
            if let asked = state.downloadAskedAt, state.priority > asked { download.raisePriority(to: state.priority) }
        }
    }

    // MARK: The stages

    /// Performs what the run's ``StateMachine`` decides, stage by stage, until it ends.
    /// The task's cancellation is checked after each stage that waited.
    private func pipeline() async -> Result<ImageResponse, ImageLoadError> {
        let layers = StateMachine.Layers(
            memory: stages.memory != nil, disk: stages.disk != nil, shared: stages.shared != nil, variants: stages.looksForVariant)
        var machine = StateMachine(request: request, caching: stages.caching, layers: layers)
        var action = machine.start()
        while true {
            enter(Self.stage(of: action))
            switch action {
            case .lookInMemory:
                // Again: a load that finished since the caller looked may have stored it.
                action = machine.memoryLooked(stages.memory?.value(forKey: request.imageKey))
            case .lookUpVariant:
                let variant = await stages.storedVariant(waits: request.options.contains(.waitForCacheStore))
                // The source's metadata only matters when there is a variant to check;
                // its bytes are not read.
                let source = variant == nil ? nil : stages.diskMetadata(for: request)
                action = Task.isCancelled ? machine.cancelled() : machine.variantLooked(variant, source: source, at: Date())
            case .answerFromVariant(let variant, let source, let revalidateBehind):
                if let revalidateBehind {
                    stages.revalidations.revalidateSource(revalidateBehind, of: variant, for: request, stages: stages)
                }
                do throws(ImageLoadError) {
                    action = machine.answered(try await answer(from: variant, source: source))
                } catch .decoding {
                    action = machine.variantAnswerFailed()
                } catch {
                    action = machine.cancelled()
                }
            case .removeVariant:
                stages.removeVariant()
                action = machine.variantRemoved()
            case .readDisk:
                // Read here, in the load's task, not through the disk cache's serial queue: a
                // read is one open, fstat and preadv (a miss, the open alone), and cold loads
                // queued behind one another and behind the writes took about 35 ms more per
                // thousand images. The caller's thread never does this read.
                let entry = stages.diskResponse(for: request)
                action = Task.isCancelled ? machine.cancelled() : machine.diskRead(entry, at: Date())
            case .lookInShared(let coalescing):
                guard let shared = stages.shared else { return .failure(.cancelled) }
                let lookup = await shared.lookup(forKey: request.dataKey, coalescing: coalescing)
                action = Task.isCancelled ? machine.cancelled() : machine.sharedLooked(lookup, at: Date())
            case .answerFromStored(let stored, let source, let revalidateBehind, let copyToDisk):
                if revalidateBehind { stages.revalidations.revalidate(stored, for: request, stages: stages) }
                do throws(ImageLoadError) {
                    let answer = try await answer(from: stored, source: source)
                    // The fleet's copy becomes this server's: the next load reads its disk.
                    if copyToDisk { await storeOnDisk(stored.data, metadata: stored.metadata) }
                    action = machine.answered(answer)
                } catch {
                    action = machine.storedAnswerFailed(error)
                }
            case .removeFromDisk:
                stages.disk?.removeResponse(forKey: request.dataKey)
                action = machine.removedFromDisk()
            case .download(let validators):
                let requestedAt = Date()
                let result: Result<DownloadResult, ImageLoadError>
                do throws(ImageLoadError) {
                    result = .success(try await download(validators: validators))
                } catch {
                    result = .failure(error)
                }
                action =
                    Task.isCancelled ? machine.cancelled() : machine.downloaded(result, requestedAt: requestedAt, receivedAt: Date())
            case .answerRevalidated(let stored, let metadata, let download, let storeShared):
                do throws(ImageLoadError) {
                    let answer = try await answerRevalidated(stored, metadata: metadata, download: download, storingShared: storeShared)
                    action = machine.answered(answer)
                } catch {
                    action = machine.answerFailed(error)
                }
            case .answerFromNetwork(let download, let metadata, let mayStore):
                do throws(ImageLoadError) {
                    action = machine.answered(try await answerFromNetwork(download, metadata: metadata, mayStore: mayStore))
                } catch {
                    action = machine.answerFailed(error)
                }
            case .finish(let result, let releasingLease):
                // Still held when nothing was stored (a failure, a response that may not be
                // stored): the fleet's next member takes over at once, not when it expires.
                if releasingLease { await stages.shared?.releaseLease(forKey: request.dataKey) }
                return result
            }
        }
    }

    /// The stage a snapshot reports while `action` is performed.
    private static func stage(of action: StateMachine.Action) -> ImageLoadSnapshot.Stage {
        switch action {
        case .lookInMemory: .lookingInMemory
        case .readDisk, .removeFromDisk, .lookUpVariant, .removeVariant: .readingDisk
        case .lookInShared: .askingSharedCache
        case .download: .downloading
        case .answerFromStored, .answerRevalidated, .answerFromNetwork, .answerFromVariant: .decoding
        case .finish: .finishing
        }
    }

    /// A 304 kept the stored bytes: decoded, and stored again with their refreshed metadata.
    private func answerRevalidated(
        _ stored: CachedResponse, metadata: CachedResponseMetadata, download: DownloadResult, storingShared: Bool
    ) async throws(ImageLoadError) -> ImageResponse {
        let decodes = !request.options.contains(.returnDataWithoutDecoding)
        let decoded = decodes ? try await stages.decodeAndTransform(stored.data, for: request, priority: priority) : nil
        try stopIfCancelled()
        let kept = await kept(CachedResponse(data: stored.data, metadata: metadata), response: download.response)
        if let image = decoded?.image { storeInMemory(image, metadata: kept?.metadata ?? metadata) }
        if let kept {
            await storeOnDisk(kept.data, metadata: kept.metadata)
            if storingShared { await storeShared(kept.data, metadata: kept.metadata) }
            if let image = decoded?.image { await storeVariant(image, metadata: kept.metadata) }
        }
        return ImageResponse(
            decoded, data: stored.data, source: .revalidated, request: request, httpResponse: download.response, metrics: download.metrics)
    }

    /// The downloaded body as the answer. A body that does not decode fails here, before
    /// anything is stored.
    private func answerFromNetwork(
        _ download: DownloadResult, metadata: CachedResponseMetadata, mayStore: Bool
    ) async throws(ImageLoadError) -> ImageResponse {
        let decodes = !request.options.contains(.returnDataWithoutDecoding)
        let decoded =
            decodes
            ? try await stages.decodeAndTransform(download.data, for: request, priority: priority, response: download.response) : nil
        try stopIfCancelled()
        let kept = mayStore ? await kept(CachedResponse(data: download.data, metadata: metadata), response: download.response) : nil
        if let image = decoded?.image { storeInMemory(image, metadata: kept?.metadata ?? metadata) }
        if let kept {
            await storeOnDisk(kept.data, metadata: kept.metadata)
            await storeShared(kept.data, metadata: kept.metadata)
            if let image = decoded?.image { await storeVariant(image, metadata: kept.metadata) }
        }
        return ImageResponse(
            decoded, data: download.data, source: .network, request: request, httpResponse: download.response, metrics: download.metrics)
    }

    /// The stored bytes as the load's answer: decoded and kept in memory, unless the load
    /// wants the bytes only.
    private func answer(from stored: CachedResponse, source: ImageSource) async throws(ImageLoadError) -> ImageResponse {
        guard !request.options.contains(.returnDataWithoutDecoding) else {
            return ImageResponse(image: nil, data: stored.data, source: source, request: request)
        }
        let decoded = try await stages.decodeAndTransform(stored.data, for: request, priority: priority)
        try stopIfCancelled()
        storeInMemory(decoded.image, metadata: stored.metadata)
        // A stale answer's metadata would store a variant no load uses.
        if source != .stale { await storeVariant(decoded.image, metadata: stored.metadata) }
        return ImageResponse(decoded, data: stored.data, source: source, request: request)
    }

    /// The stored variant as the load's answer: decoded as stored (no scaling, no
    /// transform) and kept in memory. A variant that does not decode fails with
    /// ``ImageLoadError/decoding(_:response:bytes:)``, and the run removes it.
    private func answer(from variant: FoundVariant, source: ImageSource) async throws(ImageLoadError) -> ImageResponse {
        let decoded = try await stages.decodeVariant(variant, for: request, priority: priority)
        try stopIfCancelled()
        storeInMemory(decoded.image, metadata: variant.metadata)
        var response = ImageResponse(decoded, data: nil, source: source, request: request)
        response.isStoredVariant = true
        return response
    }

    /// Stores the load's result as its variant, when the manager stores variants and the
    /// load makes one: awaited with ``ImageLoadOptions/waitForCacheStore``.
    private func storeVariant(_ image: DecodedImage, metadata: CachedResponseMetadata) async {
        guard stages.variant != nil else { return }
        await stages.storeVariant(image, metadata: metadata, waits: request.options.contains(.waitForCacheStore))
    }

    /// Downloads through the downloader. With ``NetworkRecovery``, an attempt that failed
    /// because the network was down waits for it (within the recovery's bounds) and is
    /// made again; the run's pause and priority hold for every attempt, and cancelling
    /// the task ends an attempt or a wait alike.
    private func download(validators: TransportRequest.Validators?) async throws(ImageLoadError) -> DownloadResult {
        var waits = 0
        while true {
            let error: DownloadError
            switch await attempt(validators: validators) {
            case .success(let download): return download
            case .failure(let failure): error = failure
            }
            if error.isCancelled { throw .cancelled }
            guard let recovery = stages.recovery, let status = recovery.waitingStatus(after: error, waitsSoFar: waits) else {
                throw .download(error)
            }
            enter(.waitingForNetwork)
            defer { enter(.downloading) }
            stages.events.waitingForNetwork(after: error, status: status)
            let outcome = await recovery.waitForNetwork(for: request.url, clock: stages.clock)
            stages.events.endedNetworkWait(outcome)
            switch outcome {
            case .networkBack: waits += 1
            case .timedOut: throw .download(error)
            case .cancelled: throw .cancelled
            }
        }
    }

    /// One attempt through the downloader, passing progress on to the subscribers, and
    /// partial images made from the body as it arrives for a progressive load; cancelling
    /// the task cancels the download.
    private func attempt(validators: TransportRequest.Validators?) async -> Result<DownloadResult, DownloadError> {
        var downloadRequest = request.downloadRequest(validators: validators)
        let asked = control.withLock { state in
            let asked = max(state.priority, downloadRequest.effectivePriority)
            state.downloadAskedAt = asked
            return asked
        }
        downloadRequest.raisePriority(to: asked)
        let progressive =
            request.options.contains(.progressiveLoad)
            ? ProgressiveImages(decoders: stages.decoders, options: request.decodeOptions, budget: stages.memoryBudget) { [self] in
                publishPartial($0)
            } : nil
        // The run's task is cancelled when the load is abandoned: that cancels the token.
        return await withCancellableContinuationHoldingEarly({
            (resume: @escaping @Sendable (Result<DownloadResult, DownloadError>) -> Void, hold) in
            // The token is known before the first event: a load paused from its first
            // progress event finds the download to pause, and a cancel that comes before
            // `download` returns (its first attempt failed at once, say) reaches it.
            let tokenReady = { [self] (token: DownloadToken) in
                downloadBegan(token)
                hold(token)
            }
            return stages.downloader.download(downloadRequest, delivery: .immediate, tokenReady: tokenReady) { [self] event in
                switch event {
                case .progress(let received, let expected):
                    self.received.store(received, ordering: .relaxed)
                    self.expected.store(expected ?? -1, ordering: .relaxed)
                    guard publishesProgress.load(ordering: .relaxed) else { return }
                    runs.registry.publishProgress(
                        received: received, expected: expected, for: key, generation: generation.load(ordering: .relaxed))
                case .partial(let body):
                    progressive?.receive(body)
                case .completed(let result):
                    progressive?.close()
                    resume(result)
                }
            }
        })
    }

    private func publishPartial(_ partial: DecodedImage) {
        guard !isAbandoned else { return }  // nobody to see it: skip the transform
        // Partial images look like the final one: transformed alike. One that cannot be
        // transformed is skipped; the final image decides the result.
        guard let image = try? stages.transform(partial, for: request, reports: false) else { return }
        var marked = image
        marked.isPartial = true
        runs.registry.publishPartial(marked, for: key, generation: generation.load(ordering: .relaxed))
    }

    /// Keeps the image in memory: for as long as its response stays fresh when the memory
    /// cache follows freshness (not at all once stale), else with no limit.
    private func storeInMemory(_ image: DecodedImage, metadata: CachedResponseMetadata) {
        guard let memory = stages.memory else { return }
        if let lifetime = stages.caching.memoryLifetime(metadata, at: Date()) {
            memory.setValue(image, forKey: request.imageKey, cost: image.byteCount, expiresAfter: lifetime)
            guard lifetime > .zero else { return }
        } else {
            memory.setValue(image, forKey: request.imageKey, cost: image.byteCount)
        }
        stages.events.stored(in: .memory)
    }

    /// Writes the bytes to disk: awaited with ``ImageLoadOptions/waitForCacheStore``,
    /// otherwise handed to the manager's write-behind (written once the loads are done).
    /// A failed write (full disk, say) costs the cache entry, never the load.
    private func storeOnDisk(_ data: Data, metadata: CachedResponseMetadata) async {
        guard let disk = stages.disk else { return }
        let write = DiskWriteBehind.Write(disk: disk, data: data, metadata: metadata, key: request.dataKey)
        if request.options.contains(.waitForCacheStore) {
            await stages.writes.write(write)
        } else {
            stages.writes.enqueue(write)
        }
        stages.events.stored(in: .disk)
    }

    /// What the stores keep of `proposed`, a response the caching rules let this load
    /// store: the cached-response handler's answer, or `proposed` without one. A `nil`
    /// answer stores nothing, so the fleet's lease on the key is given up here: the next
    /// member asks the network at once.
    private func kept(_ proposed: CachedResponse, response: TransportResponse) async -> CachedResponse? {
        guard let handler = stages.caching.keeps else { return proposed }
        if let kept = handler(proposed, response) { return kept }
        await stages.shared?.releaseLease(forKey: request.dataKey)
        return nil
    }

    /// Writes the bytes to the fleet's shared tier, which ends this load's lease on the
    /// key: awaited, so that the members waiting for them go on now. A failed write costs
    /// the tier's entry, never the load.
    private func storeShared(_ data: Data, metadata: CachedResponseMetadata) async {
        guard let shared = stages.shared else { return }
        do {
            try await shared.store(data, metadata: metadata, forKey: request.dataKey)
            stages.events.stored(in: .shared)
        } catch {
            // The tier's loss only; its lease is given up by the store.
        }
    }
}
