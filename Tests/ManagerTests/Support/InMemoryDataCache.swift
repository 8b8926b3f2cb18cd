import Foundation
import Synchronization

@testable import WebImageConcurrency
@testable import WebImageCore

/// A disk cache that keeps its entries in memory and tells when one is stored: the
/// manager's cache logic without files, and a write-behind the test can await instead of
/// polling the disk.
final class InMemoryDataCache: DataCaching {
    private let entries = Locked<[CacheKey: CachedResponse]>([:])
    private let stores = AsyncStream<CacheKey>.makeStream()

    func response(forKey key: CacheKey) -> CachedResponse? { entry(key) }

    func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
        put(CachedResponse(data: data, metadata: metadata), key)
    }

    func removeResponse(forKey key: CacheKey) { entries.withLock { $0[key] = nil } }
    func removeAll() { entries.withLock { $0.removeAll() } }
    func removeExpired() {}
    var totalSize: Int { entries.withLock { $0.values.reduce(0) { $0 + $1.data.count } } }
    var count: Int { entries.withLock { $0.count } }

    func response(forKey key: CacheKey) async -> CachedResponse? { entry(key) }

    func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) async throws(CacheError) {
        put(CachedResponse(data: data, metadata: metadata), key)
    }

    /// The entry under `key`: what tests read (a name the async requirement does not share).
    subscript(key: CacheKey) -> CachedResponse? { entry(key) }

    /// Stores `data` with empty metadata, as a test's setup.
    func put(_ data: Data, forKey key: CacheKey) {
        put(CachedResponse(data: data, metadata: .init()), key)
    }

    private func entry(_ key: CacheKey) -> CachedResponse? { entries.withLock { $0[key] } }

    private func put(_ response: CachedResponse, _ key: CacheKey) {
        entries.withLock { $0[key] = response }
        stores.continuation.yield(key)
    }

    /// Returns once `key` has been stored (at once if it was stored before and is still
    /// there).
    func stored(_ key: CacheKey) async {
        if entry(key) != nil { return }
        for await storedKey in stores.stream where storedKey == key { return }
    }
}
