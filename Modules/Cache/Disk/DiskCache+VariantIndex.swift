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

    var variantIndex: VariantIndexFiles { VariantIndexFiles(directory: variantIndexURL) }

    /// Records that the entry `variant` was made from `source`: one line appended to the
    /// source's file. Record before storing the variant, so no stored variant goes
    /// unlisted. A failure (a full disk) leaves the variant unlisted, and the cache's
    /// limits remove it in time. I/O on the caller's thread.
    public func recordVariant(_ variant: CacheKey, ofSource source: CacheKey) {
        variantIndex.record(variant.string, ofSource: source.string)
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

    /// The synchronous `purgeSource(_:)` on the cache's queue; never `nil` (a disk has no
    /// node to be down).
    @discardableResult
    public func purgeSource(_ source: CacheKey) async -> Int? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.purgeSource(source) as Int) }
        }
    }
}
