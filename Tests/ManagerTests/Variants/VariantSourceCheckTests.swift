import Foundation
import Synchronization
import Testing
@_spi(Tooling) import WebImage
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency

/// The check of a stored variant against its source on disk (the same validators) reads
/// the source's metadata, never its bytes: against the loopback server and a real disk
/// cache folder, through a cache that notes which keys had their whole entry read.
@Suite("Manager: a stored variant's source check reads no source bytes", .timeLimit(.minutes(1)))
struct VariantSourceCheckTests {
    /// A `DiskCache`, noting the keys whose whole entry (bytes and metadata) was read and
    /// those whose metadata alone was.
    final class NotingDisk: DataCaching {
        let disk: DiskCache
        private let reads = Locked<(whole: [CacheKey], metadata: [CacheKey])>(([], []))

        init(_ disk: DiskCache) { self.disk = disk }

        var wholeReads: [CacheKey] { reads.withLock { $0.whole } }
        var metadataReads: [CacheKey] { reads.withLock { $0.metadata } }

        func response(forKey key: CacheKey) -> CachedResponse? {
            reads.withLock { $0.whole.append(key) }
            return disk.response(forKey: key)
        }
        func response(forKey key: CacheKey) async -> CachedResponse? {
            reads.withLock { $0.whole.append(key) }
            return await disk.response(forKey: key)
        }
        func metadata(forKey key: CacheKey) -> CachedResponseMetadata? {
            reads.withLock { $0.metadata.append(key) }
            return disk.metadata(forKey: key)
        }
        func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
            try disk.store(data, metadata: metadata, forKey: key)
        }
        func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) async throws(CacheError) {
            try await disk.store(data, metadata: metadata, forKey: key)
        }
        func removeResponse(forKey key: CacheKey) { disk.removeResponse(forKey: key) }
        func removeAll() { disk.removeAll() }
        func removeExpired() { disk.removeExpired() }
        var totalSize: Int { disk.totalSize }
        var count: Int { disk.count }
    }

    private func manager(_ fixture: Fixture, disk: NotingDisk, decoders: CountingDecoders) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: fixture.cacheDirectory)
        configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
        let parts = DefaultComposition(configuration: configuration)
        return ImageManager(
            downloader: parts.downloader, decoders: decoders, registry: parts.loadRegistry, memoryCache: parts.memoryCache,
            diskCache: disk, configuration: parts.managerConfiguration)
    }

    @Test("a restarted manager serving a thumbnail from its variant reads the source's metadata and not its bytes")
    func variantCheckReadsMetadataOnly() async throws {
        try await withFixture { fixture in
            let url = fixture.server.url("/cache/photo.jpg?cc=max-age%3D600")
            let request = ImageRequest(url: url, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: 100))
            let folder = DiskCache(directory: fixture.cacheDirectory, namespace: WebImageConfiguration().diskCacheNamespace)
            _ = try await manager(fixture, disk: NotingDisk(folder), decoders: CountingDecoders()).response(for: request)

            let disk = NotingDisk(DiskCache(directory: fixture.cacheDirectory, namespace: WebImageConfiguration().diskCacheNamespace))
            let decoders = CountingDecoders()
            let response = try await manager(fixture, disk: disk, decoders: decoders).response(for: request)
            #expect(response.isStoredVariant)
            #expect(decoders.count(.jpeg) == 0)
            #expect(disk.metadataReads == [request.dataKey], "the source was checked")
            #expect(!disk.wholeReads.contains(request.dataKey), "its bytes were not read")
        }
    }
}
