import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// Holds a manager's disk writes while its loads run and writes them when the loads are
/// done: "off the load's path" in CPU as well as in latency, which matters on a machine
/// whose cores are busy decoding. A write waits at most until no load is running, until
/// ``pendingByteLimit`` bytes wait, or until the oldest has waited ``maximumDelay``;
/// ``flush()`` writes everything now. The bytes wait in memory meanwhile, so a process
/// that exits without flushing loses them (the cache's loss, never the load's); a load
/// that looks for them on disk meanwhile finds them here (``waitingResponse(for:in:)``).
final class DiskWriteBehind: Sendable {
    struct Write: Sendable {
        let disk: any DataCaching
        let data: Data
        let metadata: CachedResponseMetadata
        let key: CacheKey
        /// For a stored variant: its source's key, under which the disk's index of
        /// variants per source (`VariantIndexing`) lists it before it is written.
        var variantOf: CacheKey? = nil
    }

    /// What the writer does, in the order enqueued: a write, or work that ends in writes
    /// (a stored variant still to be encoded), which holds `bytes` until it runs.
    private enum Job: Sendable {
        case write(Write)
        case deferred(bytes: Int, run: @Sendable () async -> Void)

        var bytes: Int {
            switch self {
            case .write(let write): write.data.count
            case .deferred(let bytes, _): bytes
            }
        }
    }

    private struct State {
        var pending: [(serial: UInt64, job: Job)] = []
        /// Every write not yet finished, by key: the newest for each.
        var unwritten: [CacheKey: (serial: UInt64, write: Write)] = [:]
        var serial: UInt64 = 0
        var pendingBytes = 0
        /// When the oldest pending write was enqueued (see `elapsed`).
        var oldest: Duration?
        var runningLoads = 0
        var isWriting = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    static let pendingByteLimit = 32 << 20
    static let maximumDelay: Duration = .seconds(2)

    private let state = Locked(State())
    private let storeFailed: @Sendable (CacheError, CacheKey) -> Void
    /// The time since this write-behind was made, on its clock: what ``maximumDelay``
    /// is measured in.
    private let elapsed: @Sendable () -> Duration

    /// - Parameter clock: what the delay is measured on (the manager's clock).
    init(clock: some Clock<Duration>, storeFailed: @escaping @Sendable (CacheError, CacheKey) -> Void) {
        self.storeFailed = storeFailed
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
    }

    /// Whether a writer is under way: started by the enqueue, flush or load end that
    /// found the writes due, before it returned, and running until nothing waits.
    var isWriting: Bool { state.withLock { $0.isWriting } }

    func loadStarted() {
        state.withLock { $0.runningLoads += 1 }
    }

    func loadEnded() {
        let start = state.withLock { state -> Bool in
            state.runningLoads -= 1
            return state.runningLoads == 0 && claimWriter(&state)
        }
        if start { startWriting() }
    }

    func enqueue(_ write: Write) {
        enqueue(.write(write))
    }

    /// Runs `work` on the writer, in its turn among the writes, when they are due
    /// (``flush()`` waits for it too); `bytes` is what it holds in memory until then,
    /// counted toward ``pendingByteLimit``. Its own writes are made at once with
    /// ``write(_:)``.
    func enqueueDeferred(holding bytes: Int, _ work: @escaping @Sendable () async -> Void) {
        enqueue(.deferred(bytes: bytes, run: work))
    }

    private func enqueue(_ job: Job) {
        let now = elapsed()
        let start = state.withLock { state -> Bool in
            state.serial += 1
            if case .write(let write) = job { state.unwritten[write.key] = (state.serial, write) }
            state.pending.append((state.serial, job))
            state.pendingBytes += job.bytes
            if state.oldest == nil { state.oldest = now }
            let due =
                state.runningLoads == 0 || state.pendingBytes >= Self.pendingByteLimit
                || state.oldest.map { now - $0 >= Self.maximumDelay } == true
            return due && claimWriter(&state)
        }
        if start { startWriting() }
    }

    /// Writes now, on the calling task (``ImageLoadOptions/waitForCacheStore``, and the
    /// writer), a variant listed in its disk's index first. A failure is reported, never
    /// thrown: it costs the entry, not the load.
    func write(_ write: Write) async {
        do throws(CacheError) {
            if let source = write.variantOf, let index = write.disk as? any VariantIndexing {
                try await index.storeVariant(write.data, metadata: write.metadata, forKey: write.key, ofSource: source)
            } else {
                try await write.disk.store(write.data, metadata: write.metadata, forKey: write.key)
            }
        } catch {
            storeFailed(error, write.key)
        }
    }

    /// The bytes waiting to be written under `key` to `disk`, if any.
    func waitingResponse(for key: CacheKey, in disk: any DataCaching) -> CachedResponse? {
        guard let entry = state.withLock({ $0.unwritten[key] }),
            (entry.write.disk as AnyObject) === (disk as AnyObject)
        else { return nil }
        return CachedResponse(data: entry.write.data, metadata: entry.write.metadata)
    }

    /// Writes everything waiting and returns when it is on disk.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (start, done) = state.withLock { state -> (Bool, Bool) in
                if state.pending.isEmpty && !state.isWriting { return (false, true) }
                state.waiters.append(continuation)
                return (claimWriter(&state), false)
            }
            if done { continuation.resume() }
            if start { startWriting() }
        }
    }

    /// Becomes the one writer, when there is something to write and no writer yet.
    private func claimWriter(_ state: inout State) -> Bool {
        guard !state.isWriting, !state.pending.isEmpty else { return false }
        state.isWriting = true
        return true
    }

    private func startWriting() {
        Task.detached(priority: .utility) { [self] in
            while true {
                let batch = state.withLock { state -> [(serial: UInt64, job: Job)] in
                    defer {
                        state.pending = []
                        state.pendingBytes = 0
                        state.oldest = nil
                    }
                    return state.pending
                }
                for (serial, job) in batch {
                    guard case .write(let write) = job else {
                        if case .deferred(_, let run) = job { await run() }
                        continue
                    }
                    await self.write(write)
                    // Forgotten once on disk, unless a newer write of the key came meanwhile.
                    state.withLock { state in
                        if state.unwritten[write.key]?.serial == serial { state.unwritten[write.key] = nil }
                    }
                }
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    guard state.pending.isEmpty else { return nil }
                    state.isWriting = false
                    defer { state.waiters = [] }
                    return state.waiters
                }
                guard let waiters else { continue }
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }
}
