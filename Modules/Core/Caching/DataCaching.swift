import Foundation

/// A persistent cache of downloaded bytes and their HTTP metadata.
///
/// The synchronous methods do their I/O on the calling thread; the `async` ones and the
/// callback ones never do (they run on the cache's own I/O queue). Every method may be
/// called from any thread, and from several processes sharing a directory.
public protocol DataCaching: Sendable {
    /// The entry for `key`, or `nil` when absent, expired, corrupt or foreign (a damaged
    /// entry is removed).
    func response(forKey key: CacheKey) -> CachedResponse?
    /// Stores `data` and `metadata` for `key`, replacing any entry, atomically.
    ///
    /// - Throws: ``CacheError`` when the entry cannot be written (a full disk, an
    ///   unwritable directory); the cache keeps serving what it has.
    func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError)
    /// The metadata of the entry for `key`, under the same rules as the synchronous
    /// `response(forKey:)`, reading no more of the bytes than the cache must: a
    /// freshness or validator check of a large entry costs a few hundred bytes of I/O. The
    /// default reads the whole entry.
    func metadata(forKey key: CacheKey) -> CachedResponseMetadata?
    /// Removes the entry for `key`, if any.
    func removeResponse(forKey key: CacheKey)
    /// Removes every entry.
    func removeAll()
    /// Removes the entries past the maximum age.
    func removeExpired()
    /// Bytes taken by the entries.
    var totalSize: Int { get }
    /// Number of entries.
    var count: Int { get }

    /// ``response(forKey:)`` off the caller's thread.
    func response(forKey key: CacheKey) async -> CachedResponse?
    /// ``store(_:metadata:forKey:)`` off the caller's thread.
    func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) async throws(CacheError)
}

extension DataCaching {
    /// The whole entry's metadata: for a cache that cannot read the metadata alone.
    public func metadata(forKey key: CacheKey) -> CachedResponseMetadata? {
        response(forKey: key)?.metadata
    }
}
