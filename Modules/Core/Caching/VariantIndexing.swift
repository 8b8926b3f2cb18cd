import Foundation

/// A cache that keeps, for each source, the keys of the variants made from it (thumbnails,
/// other processed results), so that purging a source finds every one of them without a
/// scan of the whole cache.
///
/// A variant is stored with ``storeVariant(_:metadata:forKey:ofSource:)``, or recorded with
/// ``recordVariant(_:ofSource:)`` just before its store; a purge,
/// ``purgeSource(_:)``, removes the source's own entry, every variant recorded for it and
/// the record. Like every shared tier a member's failure to reach a node is not an error:
/// a record that could not be written leaves a variant a purge does not find, which then
/// lives until its time to live ends.
///
/// Thread contract: every method may be called from any task at once.
public protocol VariantIndexing: Sendable {
    /// Records that the entry `variant` was made from the source whose entry is `source`.
    func recordVariant(_ variant: CacheKey, ofSource source: CacheKey) async

    /// Records `variant` as made from `source`, then stores it: the way to store a
    /// variant, so that a purge finds it. An index that drops the keys of entries gone
    /// (the disk's, when it compacts) keeps its record in the meantime. The default
    /// records, then calls `store(_:metadata:forKey:)`.
    ///
    /// - Throws: the store's ``CacheError``; the record stays, and a purge skips the entry
    ///   it lists.
    func storeVariant(_ data: Data, metadata: CachedResponseMetadata, forKey variant: CacheKey, ofSource source: CacheKey)
        async throws(CacheError)

    /// Removes the entry `source`, every variant recorded for it, and the record.
    ///
    /// - Returns: how many variant keys the record listed (whether or not each entry was
    ///   still there), or `nil` when the record could not be read (its node is down).
    @discardableResult
    func purgeSource(_ source: CacheKey) async -> Int?
}

extension VariantIndexing where Self: DataCaching {
    /// Records, then stores.
    public func storeVariant(_ data: Data, metadata: CachedResponseMetadata, forKey variant: CacheKey, ofSource source: CacheKey)
        async throws(CacheError)
    {
        await recordVariant(variant, ofSource: source)
        try await store(data, metadata: metadata, forKey: variant)
    }
}
