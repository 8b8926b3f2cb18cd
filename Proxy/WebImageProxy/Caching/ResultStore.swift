import Foundation
import WebImage

/// Where the proxy keeps processed results between restarts and across a fleet: a disk
/// cache (`proxy-results` below the cache directory) and, when configured, the shared
/// tier; with an index of variants per source on each (`proxy-results-index` beside the
/// disk's folder, a Redis set per source in the tier), for purges.
///
/// A lookup reads the disk, then the tier (a tier hit is copied to the disk). A miss in
/// the tier takes the variant's lease there, so the fleet renders each variant once: the
/// others wait for the holder's store, as source fetches do. Every fault is a miss: a node
/// down or slow, a disk that cannot be read, a value that is not one intact result (that
/// one is removed, and the render that follows stores a good one over it).
struct ResultStore: Sendable {
    let disk: DiskCache?
    let shared: (any SharedDataCaching & VariantIndexing)?

    /// Where a stored result was found.
    enum Tier: Sendable { case disk, shared }

    enum Lookup: Sendable {
        case found(StoredVariant, Tier)
        /// Not stored; `leased`: this process holds the variant's lease in the tier and
        /// must store the result or release the lease.
        case miss(leased: Bool)
    }

    init(directory: URL?, diskBytes: Int, shared: (any SharedDataCaching & VariantIndexing)?) {
        disk = directory.map { directory in
            var configuration = DiskCache.Configuration(directory: directory, namespace: "proxy-results")
            configuration.maximumSize = diskBytes
            return DiskCache(configuration)
        }
        self.shared = shared
    }

    var isEnabled: Bool { disk != nil || shared != nil }

    func lookup(_ key: VariantKey) async -> Lookup {
        if let disk, let response = await disk.response(forKey: key.cacheKey) {
            if let variant = StoredVariant(decoding: response.data) { return .found(variant, .disk) }
            await disk.removeResponse(forKey: key.cacheKey)
        }
        guard let shared else { return .miss(leased: false) }
        switch await shared.lookup(forKey: key.cacheKey, coalescing: true) {
        case .hit(let response):
            guard let variant = StoredVariant(decoding: response.data) else { return .miss(leased: false) }
            await storeOnDisk(variant, key: key)
            return .found(variant, .shared)
        case .miss(let leased):
            return .miss(leased: leased)
        }
    }

    /// Stores a fresh render on the disk and in the tier (which ends this process's lease),
    /// each with its index entry. Failures are ignored: the result was served, and the next
    /// request for it renders again.
    func store(_ variant: StoredVariant, key: VariantKey) async {
        await storeOnDisk(variant, key: key)
        guard let shared else { return }
        await shared.recordVariant(key.cacheKey, ofSource: CacheKey(key.source))
        let metadata = CachedResponseMetadata(contentType: variant.contentType)
        do {
            try await shared.store(variant.encoded(), metadata: metadata, forKey: key.cacheKey)
        } catch {
            await shared.releaseLease(forKey: key.cacheKey)
        }
    }

    /// Ends this process's lease on `key` without a result (the render failed).
    func release(_ key: VariantKey) async {
        await shared?.releaseLease(forKey: key.cacheKey)
    }

    private func storeOnDisk(_ variant: StoredVariant, key: VariantKey) async {
        guard let disk else { return }
        try? await disk.storeVariant(
            variant.encoded(), metadata: CachedResponseMetadata(contentType: variant.contentType), forKey: key.cacheKey,
            ofSource: CacheKey(key.source))
    }

    /// Removes every variant of `source` from the disk and the tier, with the indexes, and
    /// the source's own entry from the tier. Returns the variants the indexes listed.
    func purge(source: String) async -> (disk: Int, shared: Int?) {
        let removedOnDisk = await disk?.purgeSource(CacheKey(source)) ?? 0
        let removedShared = await shared?.purgeSource(CacheKey(source))
        return (removedOnDisk, removedShared)
    }
}
