import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

/// URLs that failed permanently (HTTP 404 or 410, or bytes that do not decode), so the
/// manager does not fetch them again for a while: the failed-URL set of SDWebImage, with
/// an expiry. A transient failure (timeout, reset, 5xx, cancellation) is never recorded.
///
/// Keyed by the resource's cache key (``ImageRequest/dataKey``). Safe from any thread; a
/// lookup or removal while the set is empty takes no lock.
public final class FailedURLSet: Sendable {
    /// How long a failure keeps its URL from being fetched.
    public let retryInterval: Duration
    private let entries = Locked<[CacheKey: ContinuousClock.Instant]>([:])
    /// Mirrors `entries.count`, so the common case (nothing failed) is one atomic load.
    private let size = Atomic<Int>(0)
    /// The present; a test passes its own, so that expiry needs no waiting.
    private let now: @Sendable () -> ContinuousClock.Instant

    public convenience init(retryInterval: Duration = .seconds(600)) {
        self.init(retryInterval: retryInterval, now: { ContinuousClock.now })
    }

    package init(retryInterval: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.retryInterval = retryInterval
        self.now = now
    }

    /// Whether `key` failed less than ``retryInterval`` ago.
    public func contains(_ key: CacheKey) -> Bool {
        guard size.load(ordering: .relaxed) > 0 else { return false }
        let now = now()
        return entries.withLock { entries in
            guard let failedAt = entries[key] else { return false }
            if now - failedAt < retryInterval { return true }
            entries[key] = nil
            size.store(entries.count, ordering: .relaxed)
            return false
        }
    }

    /// Records a permanent failure of `key` now.
    public func insert(_ key: CacheKey) {
        let now = now()
        entries.withLock { entries in
            entries[key] = now
            size.store(entries.count, ordering: .relaxed)
        }
    }

    /// Forgets one URL's failure (by its ``ImageRequest/dataKey``).
    public func remove(_ key: CacheKey) {
        guard size.load(ordering: .relaxed) > 0 else { return }  // every successful load asks
        entries.withLock { entries in
            entries[key] = nil
            size.store(entries.count, ordering: .relaxed)
        }
    }

    /// Forgets every failure.
    public func removeAll() {
        entries.withLock { entries in
            entries.removeAll()
            size.store(0, ordering: .relaxed)
        }
    }

    /// URLs recorded, expired ones included until they are next looked up.
    public var count: Int { size.load(ordering: .relaxed) }
}
