import Foundation
import Testing
import WebImageCache
import WebImageCore

@Suite("ImageCache: memory first, then disk, stored where told")
struct ImageCacheTests {
    static func image(side: Int = 4) throws -> DecodedImage {
        let bitmap = try ImageBitmap(width: side, height: side, pixelFormat: .rgba8) { bytes, _ in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index) }
        }
        return DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap)])
    }

    /// A cache over a real memory cache and a real disk cache in a fresh directory.
    static func makeCache() throws -> (ImageCache, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-\(UUID().uuidString)")
        let cache = ImageCache(
            memory: MemoryCache<CacheKey, DecodedImage>(configuration: MemoryCacheConfiguration(costLimit: 1 << 20, shardCount: 1)),
            disk: DiskCache(directory: folder)
        )
        return (cache, folder)
    }

    let urlKey: CacheKey = "https://example.com/a.png"
    let thumbKey: CacheKey = "https://example.com/a.png#maxPixelSize=64"

    @Test("a miss everywhere is nil; bytes on disk come back as data; an image in memory wins")
    func queryOrder() async throws {
        let (cache, folder) = try Self.makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) == nil)

        try await cache.storeData(Data([1, 2, 3]), metadata: CachedResponseMetadata(etag: "\"v1\""), forKey: urlKey, in: .all)
        guard case .data(let response) = await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) else {
            Issue.record("the disk should answer")
            return
        }
        #expect(response.data == Data([1, 2, 3]))
        #expect(response.metadata.etag == "\"v1\"")

        let image = try Self.image()
        cache.storeImage(image, forKey: thumbKey, in: .all)
        guard case .image(let found, let source) = await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) else {
            Issue.record("the memory should answer first")
            return
        }
        #expect(source == .memory)
        #expect(found.bitmap == image.bitmap)
    }

    @Test("the cache types say where to look and where to store")
    func cacheTypes() async throws {
        let (cache, folder) = try Self.makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        cache.storeImage(try Self.image(), forKey: thumbKey, in: .disk)
        try await cache.storeData(Data([9]), metadata: CachedResponseMetadata(), forKey: urlKey, in: .memory)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) == nil, "nothing was stored where it does not belong")

        cache.storeImage(try Self.image(), forKey: thumbKey, in: .memory)
        try await cache.storeData(Data([9]), metadata: CachedResponseMetadata(), forKey: urlKey, in: .disk)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .none) == nil)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .disk).isData)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .memory).isImage)

        cache.remove(imageKey: thumbKey, dataKey: urlKey, from: .memory)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all).isData)
        cache.removeAll(from: .all)
        #expect(await cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) == nil)
    }

    @Test("the callback form answers a memory hit at once and a disk hit on the given queue")
    func callbacks() async throws {
        let (cache, folder) = try Self.makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await cache.storeData(Data([7]), metadata: CachedResponseMetadata(), forKey: urlKey, in: .disk)
        let queue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let (onQueue, isData) = await withCheckedContinuation { continuation in
            cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all, callbackQueue: queue) { result in
                continuation.resume(returning: (DispatchQueue.getSpecific(key: key) == true, result.isData))
            }
        }
        #expect(onQueue)
        #expect(isData)
    }

    @Test("the synchronous query reads the disk on the calling thread")
    func synchronousQuery() throws {
        let (cache, folder) = try Self.makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        try cache.disk?.store(Data([5]), metadata: CachedResponseMetadata(), forKey: urlKey)
        guard case .data(let response) = cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) else {
            Issue.record("the disk should answer")
            return
        }
        #expect(response.data == Data([5]))
    }

    @Test("a cache without a disk part still caches in memory")
    func memoryOnly() throws {
        let cache = ImageCache(memory: MemoryCache<CacheKey, DecodedImage>(), disk: nil)
        cache.storeImage(try Self.image(), forKey: thumbKey, in: .all)
        #expect(cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all).isImage)
        #expect(cache.query(imageKey: "other", dataKey: "other", in: .all) == nil)
    }
}

extension Optional where Wrapped == ImageCache.QueryResult {
    var isData: Bool { if case .data = self { return true } else { return false } }
    var isImage: Bool { if case .image = self { return true } else { return false } }
}
