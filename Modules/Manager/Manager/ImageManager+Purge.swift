import Foundation
import WebImageCore

extension ImageManager {
    /// Removes a source and everything made from it: its bytes and every stored variant
    /// (``Configuration/variantStorage``) from the disk cache and the shared tier, and the
    /// decoded images in memory. The next load of the source, or of any variant of it,
    /// downloads and decodes again.
    ///
    /// The variants are found through each cache's index of variants per source
    /// (`VariantIndexing`: a file per source beside a `DiskCache`'s folder, a Redis set
    /// per source in a `SharedCache`), never by scanning a cache; a cache without an
    /// index loses the source's bytes only. The waiting disk writes are written first, so
    /// none of them brings a variant back after the purge. The memory cache is emptied
    /// whole, as it keeps no index per source. A load running meanwhile may store its
    /// result again when it ends.
    ///
    /// A purge runs to its end once started: it has no token to cancel it, because one
    /// stopped half-way would leave variants that no index lists any more.
    ///
    /// - Parameter url: the source, as loads name it (the manager's `cacheKeyFilter`
    ///   applies).
    /// - Returns: how many variants the indexes listed.
    @discardableResult
    public func purge(source url: URL) async -> SourcePurgeSummary {
        let source = ImageRequest(url: url).keyed(by: configuration.cacheKeyFilter).dataKey
        await writes.flush()
        var summary = SourcePurgeSummary(variantsOnDisk: 0, variantsInSharedCache: nil)
        if let disk = diskCache {
            if let index = disk as? any VariantIndexing {
                summary.variantsOnDisk = await index.purgeSource(source) ?? 0
            } else {
                disk.removeResponse(forKey: source)
            }
        }
        if let tier = configuration.sharedCache {
            if let index = tier as? any VariantIndexing {
                summary.variantsInSharedCache = await index.purgeSource(source)
            } else {
                tier.removeResponse(forKey: source)
            }
        }
        memoryCache?.removeAll()
        return summary
    }

    /// ``purge(source:)``, then `completion` with what it removed, on `delivery`.
    public func purge(
        source url: URL, delivery: CallbackDelivery = .immediate,
        completion: @escaping @Sendable (SourcePurgeSummary) -> Void
    ) {
        Task {
            let summary = await purge(source: url)
            delivery.run { completion(summary) }
        }
    }
}

/// What ``ImageManager/purge(source:)`` removed.
public struct SourcePurgeSummary: Sendable, Hashable {
    /// The variants the disk cache's index listed for the source (0 without a disk
    /// cache, or with one that keeps no index).
    public var variantsOnDisk: Int
    /// The variants the shared tier's index listed: `nil` without a tier, with one that
    /// keeps no index, or when the source's node did not answer (its variants then stay
    /// until their time to live ends).
    public var variantsInSharedCache: Int?

    public init(variantsOnDisk: Int, variantsInSharedCache: Int?) {
        self.variantsOnDisk = variantsOnDisk
        self.variantsInSharedCache = variantsInSharedCache
    }
}
