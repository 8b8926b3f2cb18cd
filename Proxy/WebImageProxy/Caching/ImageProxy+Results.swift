import Foundation
import WebImage

extension ImageProxy {
    /// The output for `key`: a stored result (disk, then the shared tier) when there is
    /// one, else a render, stored for the next request, the next process and the fleet.
    /// While another member of the fleet renders it (it holds the variant's lease), this
    /// waits for its result rather than rendering too.
    func storedOrRendered(_ key: OutputKey, source: URL) async throws -> RenderedOutput {
        let variantKey = VariantKey(source: sourceKey(of: source), output: key, configuration: configuration)
        var leased = false
        if results.isEnabled {
            switch await results.lookup(variantKey) {
            case .found(let stored, _):
                count { $0.storedResultHits += 1 }
                return output(stored, key: variantKey, options: key.options, source: source)
            case .miss(let holdsLease):
                leased = holdsLease
            }
        }
        let stored: StoredVariant
        do {
            stored = try await queue.run { try await self.make(key, source: source) }
        } catch {
            if leased { await results.release(variantKey) }
            throw error
        }
        count { $0.renders += 1 }
        if results.isEnabled { await results.store(stored, key: variantKey) }
        return output(stored, key: variantKey, options: key.options, source: source)
    }

    /// Removes `source` and every processed result made from it: the results on disk and
    /// in the shared tier (found through the indexes of variants per source), the
    /// source's bytes in the sources' caches (memory, disk, and the shared tier's entry).
    /// The next request for any of them fetches the source and renders again.
    ///
    /// The output memory cache of this process is emptied too (it is not indexed by
    /// source); other processes' memory caches keep what they hold until it is pushed out,
    /// so a fleet's purge is complete once each member's output cache has turned over
    /// (``Configuration/outputCacheBytes``), or at once for members that keep none.
    ///
    /// - Returns: how many stored results the indexes listed for the source.
    @discardableResult
    public func purge(source: URL) async -> PurgeSummary {
        let key = sourceKey(of: source)
        let (disk, shared) = await results.purge(source: key)
        sources.removeCached(ImageRequest(url: source))
        outputs.removeAll()
        return PurgeSummary(resultsOnDisk: disk, resultsInSharedCache: shared)
    }

    /// The source's key in the caches: the sources' manager's `cacheKeyFilter` applied to
    /// the URL, as the manager keys its bytes.
    func sourceKey(of url: URL) -> String {
        sources.configuration.cacheKeyFilter?(url) ?? ImageRequest(url: url).dataKey.string
    }

    private func output(_ stored: StoredVariant, key: VariantKey, options: ProcessingOptions, source: URL) -> RenderedOutput {
        RenderedOutput(
            data: stored.body, contentType: stored.contentType,
            disposition: PassThrough.disposition(source: source, options: options, fileExtension: stored.fileExtension),
            entityTag: stored.entityTag(for: key), variesByAccept: stored.variesByAccept)
    }
}

/// What ``ImageProxy/purge(source:)`` removed.
public struct PurgeSummary: Sendable, Hashable {
    /// Results the disk's index listed for the source (0 without a cache directory).
    public var resultsOnDisk: Int
    /// Results the shared tier's index listed (`nil`: no tier, or its node did not answer).
    public var resultsInSharedCache: Int?

    public init(resultsOnDisk: Int, resultsInSharedCache: Int?) {
        self.resultsOnDisk = resultsOnDisk
        self.resultsInSharedCache = resultsInSharedCache
    }
}
