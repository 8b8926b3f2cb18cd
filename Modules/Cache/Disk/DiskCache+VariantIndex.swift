import Foundation
import WebImageCore

/// The disk's index of variants per source (``VariantIndexing``): a folder beside the
/// namespace's, `<namespace>-index`, with one file per source listing the keys of the
/// variants stored for it, so a purge removes them without scanning the cache.
extension DiskCache: VariantIndexing {
    /// The folder of the index of variants per source: `<namespace>-index` beside the
    /// entries' folder (out of it, so the directory scans never see it).
    public var variantIndexURL: URL {
        configuration.directory.appendingPathComponent(configuration.safeNamespace + "-index", isDirectory: true)
    }

    /// The index's files; compaction keeps the keys whose entry files exist, as any
    /// process sharing the directory sees them.
    var variantIndex: VariantIndexFiles {
        VariantIndexFiles(directory: variantIndexURL) { [names] key in
            DiskFileIO.status(path: names.location(for: CacheKey(key)).path) != nil
        }
    }

    /// Records that the entry `variant` was made from `source`, to be stored next: one
    /// line appended to the source's file, marked pending. The file is compacted from
    /// time to time (each key once, without the keys whose entries are gone); the next
    /// compaction keeps a pending key whatever its entry, the one after checks it. Prefer
    /// `storeVariant(_:metadata:forKey:ofSource:)`, which needs no such grace. A failure
    /// (a full disk) leaves the variant unlisted, and the cache's limits remove it in
    /// time. I/O on the caller's thread.
    public func recordVariant(_ variant: CacheKey, ofSource source: CacheKey) {
        variantIndex.record(variant.string, ofSource: source.string)
    }

    /// Records `variant` as made from `source` and stores it, with the source's index file
    /// locked from the record to the end of the store, so that a compaction in any process
    /// sees the entry of every key it finds. I/O on the caller's thread.
    ///
    /// - Throws: the same `CacheError`s as ``store(_:metadata:forKey:)-7hwlk``.
    public func storeVariant(_ data: Data, metadata: CachedResponseMetadata, forKey variant: CacheKey, ofSource source: CacheKey)
        throws(CacheError)
    {
        var result: Result<Void, CacheError> = .success(())
        variantIndex.record(variant.string, ofSource: source.string) {
            do throws(CacheError) {
                try writeEntry(data, metadata: metadata, forKey: variant)
            } catch {
                result = .failure(error)
            }
        }
        try result.get()
    }

    /// Removes the entry `source`, every variant its index lists and the index's file.
    /// I/O on the caller's thread.
    ///
    /// - Returns: how many variant keys the index listed (whether or not each entry was
    ///   still there).
    @discardableResult
    public func purgeSource(_ source: CacheKey) -> Int {
        let variants = variantIndex.take(source.string)
        for variant in variants { removeEntry(forKey: CacheKey(variant)) }
        removeEntry(forKey: source)
        return variants.count
    }

    /// The synchronous `recordVariant(_:ofSource:)` on the cache's queue.
    public func recordVariant(_ variant: CacheKey, ofSource source: CacheKey) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.variantIndex.record(variant.string, ofSource: source.string)
                continuation.resume()
            }
        }
    }

    /// The synchronous `storeVariant(_:metadata:forKey:ofSource:)` on the cache's queue.
    ///
    /// - Throws: the same `CacheError`s as the synchronous form.
    public func storeVariant(_ data: Data, metadata: CachedResponseMetadata, forKey variant: CacheKey, ofSource source: CacheKey)
        async throws(CacheError)
    {
        let result: Result<Void, CacheError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(CacheError) {
                    try self.storeVariant(data, metadata: metadata, forKey: variant, ofSource: source)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// The synchronous `purgeSource(_:)` on the cache's queue; never `nil` (a disk has no
    /// node to be down).
    @discardableResult
    public func purgeSource(_ source: CacheKey) async -> Int? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.purgeSource(source) as Int) }
        }
    }
}
