import Dispatch
import Foundation
import WebImageCore

// The asynchronous forms: each runs the synchronous method on the cache's queue, so the
// caller's thread (or the cooperative pool, for `async`) never waits on the disk.
extension DiskCache {
    /// ``response(forKey:)`` on the cache's queue.
    public func response(forKey key: CacheKey) async -> CachedResponse? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.readResponse(forKey: key)) }
        }
    }

    /// ``store(_:metadata:forKey:)`` on the cache's queue.
    ///
    /// - Throws: the same `CacheError`s as the synchronous form.
    public func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) async throws(CacheError) {
        let result: Result<Void, CacheError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.storeResult(data, metadata: metadata, key: key)) }
        }
        try result.get()
    }

    /// ``removeResponse(forKey:)`` on the cache's queue.
    public func removeResponse(forKey key: CacheKey) async {
        await run { $0.removeEntry(forKey: key) }
    }

    /// ``removeAll()`` on the cache's queue.
    public func removeAll() async {
        await run { $0.removeAllEntries() }
    }

    /// ``removeExpired()`` on the cache's queue.
    public func removeExpired() async {
        await run { $0.trimEntries() }
    }

    /// ``trim()`` on the cache's queue.
    public func trim() async {
        await run { $0.trimEntries() }
    }

    // MARK: Callbacks

    /// Reads the entry for `key` on the cache's queue, then calls `completion` on
    /// `callbackQueue` (the cache's queue when `nil`).
    public func response(
        forKey key: CacheKey, callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (CachedResponse?) -> Void
    ) {
        queue.async {
            let response = self.readResponse(forKey: key)
            self.deliver(on: callbackQueue) { completion(response) }
        }
    }

    /// Stores on the cache's queue, then calls `completion` with the outcome on
    /// `callbackQueue` (the cache's queue when `nil`). The failure is a `CacheError` as
    /// for the synchronous form.
    public func store(
        _ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey, callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Void, CacheError>) -> Void
    ) {
        queue.async {
            let result = self.storeResult(data, metadata: metadata, key: key)
            self.deliver(on: callbackQueue) { completion(result) }
        }
    }

    /// Removes the entry for `key` on the cache's queue, then calls `completion`.
    public func removeResponse(forKey key: CacheKey, callbackQueue: DispatchQueue? = nil, completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.removeEntry(forKey: key)
            self.deliver(on: callbackQueue, completion)
        }
    }

    /// Removes every entry on the cache's queue, then calls `completion`.
    public func removeAll(callbackQueue: DispatchQueue? = nil, completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.removeAllEntries()
            self.deliver(on: callbackQueue, completion)
        }
    }

    /// Removes expired entries on the cache's queue, then calls `completion`.
    public func removeExpired(callbackQueue: DispatchQueue? = nil, completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.trimEntries()
            self.deliver(on: callbackQueue, completion)
        }
    }

    // MARK: Helpers

    private func storeResult(_ data: Data, metadata: CachedResponseMetadata, key: CacheKey) -> Result<Void, CacheError> {
        do throws(CacheError) {
            try writeEntry(data, metadata: metadata, forKey: key)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private func run(_ body: @escaping @Sendable (DiskCache) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                body(self)
                continuation.resume()
            }
        }
    }

    private func deliver(on callbackQueue: DispatchQueue?, _ work: @escaping @Sendable () -> Void) {
        if let callbackQueue { callbackQueue.async(execute: work) } else { work() }
    }
}
