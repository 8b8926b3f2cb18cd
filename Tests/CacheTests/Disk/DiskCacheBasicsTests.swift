import Foundation
import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageCache
@testable import WebImageConcurrency
@testable import WebImageCore

@Suite("Disk cache: entries, metadata and the API forms")
struct DiskCacheBasicsTests {
    let metadata = CachedResponseMetadata.everyField(contentType: "image/png")

    @Test("data and every metadata field come back as stored")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let data = payload(tag: "basics", key: "a", minimum: 50_000, spread: 1)
        try cache.store(data, metadata: metadata, forKey: "https://example.com/a.png")
        let hit = try #require(cache.response(forKey: "https://example.com/a.png"))
        #expect(hit.data == data)
        #expect(hit.metadata == metadata)
        #expect(cache.count == 1)
        #expect(cache.totalSize > data.count)
    }

    @Test("absent metadata fields and empty data round-trip as absent and empty")
    func emptyFields() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let bare = CachedResponseMetadata(storedAt: Date(timeIntervalSince1970: 5))
        try cache.store(Data(), metadata: bare, forKey: "empty")
        let hit = try #require(cache.response(forKey: "empty"))
        #expect(hit.data.isEmpty)
        #expect(hit.metadata == bare)
        #expect(hit.metadata.etag == nil && hit.metadata.maxAge == nil)
    }

    @Test("a second store replaces the entry, and the total counts it once")
    func replace() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(Data(repeating: 1, count: 10_000), metadata: metadata, forKey: "k")
        try cache.store(Data(repeating: 2, count: 100), metadata: metadata, forKey: "k")
        #expect(cache.response(forKey: "k")?.data == Data(repeating: 2, count: 100))
        #expect(cache.count == 1)
        #expect(cache.totalSize < 1_000)
    }

    @Test("a missing key is a miss")
    func miss() throws {
        let directory = try TemporaryDirectory()
        #expect(DiskCache.testCache(in: directory).response(forKey: "nothing") == nil)
    }

    @Test(
        "keys with slashes and dots name files inside the namespace directory",
        arguments: [
            "../../etc/passwd", "/etc/passwd", "a/b/../../../c", "..", ".", "", "%2e%2e/%2f", "ключ/🙂",
        ])
    func keysStayInside(key: String) throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let data = Data(key.utf8) + Data([0, 1, 2])
        try cache.store(data, metadata: metadata, forKey: CacheKey(key))
        #expect(cache.response(forKey: CacheKey(key))?.data == data)
        let files = filesUnder(directory.path)
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(file.hasPrefix("tests/"))
        #expect(!file.contains(".."))
        #expect((file as NSString).lastPathComponent.count == 64)
    }

    @Test("a namespace that is not a plain name cannot leave the root")
    func namespaceStaysInside() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache(DiskCache.Configuration(directory: directory.url.appendingPathComponent("root"), namespace: "../../escape"))
        try cache.store(Data("x".utf8), metadata: metadata, forKey: "k")
        #expect(cache.directoryURL.deletingLastPathComponent().path == directory.url.appendingPathComponent("root").path)
        #expect(filesUnder(directory.path).allSatisfy { $0.hasPrefix("root/ns-") })
    }

    @Test("without fan-out, entries sit directly in the namespace directory")
    func flatLayout() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory, fanOut: false)
        try cache.store(Data("x".utf8), metadata: metadata, forKey: "k")
        #expect(filesUnder(directory.path) == ["tests/" + SHA256Digest.hex("k".utf8)])
        #expect(cache.response(forKey: "k")?.data == Data("x".utf8))
    }

    @Test("removeResponse and removeAll remove files, count and size")
    func removal() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        for index in 0..<5 {
            try cache.store(Data(repeating: UInt8(index), count: 1_000), metadata: metadata, forKey: CacheKey("k\(index)"))
        }
        #expect(cache.count == 5)
        cache.removeResponse(forKey: "k2")
        #expect(cache.response(forKey: "k2") == nil)
        #expect(cache.count == 4)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalSize == 0)
        #expect(filesUnder(directory.path).isEmpty)
        #expect(cache.response(forKey: "k0") == nil)
    }

    @Test("a new cache on the same directory finds the entries already there")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        let first = DiskCache.testCache(in: directory)
        for index in 0..<3 { try first.store(Data(repeating: 7, count: 2_000), metadata: metadata, forKey: CacheKey("k\(index)")) }
        let second = DiskCache.testCache(in: directory)
        #expect(second.count == 3)
        #expect(second.totalSize == first.totalSize)
        #expect(second.response(forKey: "k1")?.data == Data(repeating: 7, count: 2_000))
    }

    @Test("async forms store and read on the cache's queue")
    func asyncForms() async throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try await cache.store(Data("async".utf8), metadata: metadata, forKey: "a")
        #expect(await cache.response(forKey: "a")?.data == Data("async".utf8))
        await cache.removeResponse(forKey: "a")
        #expect(await cache.response(forKey: "a") == nil)
        await #expect(throws: CacheError.self) {
            try await DiskCache.testCache(in: directory, maximumSize: 10).store(Data(count: 100), metadata: metadata, forKey: "big")
        }
    }

    @Test("callbacks run on the queue the caller chose")
    func callbackForms() async throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let callbackQueue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<Int>()
        callbackQueue.setSpecific(key: key, value: 42)
        let stored: (Bool, Int?) = await withCheckedContinuation { continuation in
            cache.store(Data("cb".utf8), metadata: metadata, forKey: "c", callbackQueue: callbackQueue) { result in
                continuation.resume(returning: ((try? result.get()) != nil, DispatchQueue.getSpecific(key: key)))
            }
        }
        #expect(stored.0)
        #expect(stored.1 == 42)
        let read: (Data?, Int?) = await withCheckedContinuation { continuation in
            cache.response(forKey: "c", callbackQueue: callbackQueue) { response in
                continuation.resume(returning: (response?.data, DispatchQueue.getSpecific(key: key)))
            }
        }
        #expect(read.0 == Data("cb".utf8))
        #expect(read.1 == 42)
    }

    @Test("on the default queue, asynchronous operations run in the order asked: a read after a store sees it")
    func asyncOrder() async throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let reads: [Data?] = await withCheckedContinuation { continuation in
            let collected = Locked<[Data?]>([])
            for index in 0..<20 {
                cache.store(Data([UInt8(index)]), metadata: metadata, forKey: "ordered") { _ in }
                cache.response(forKey: "ordered") { response in
                    let done = collected.withLock {
                        $0.append(response?.data)
                        return $0.count == 20 ? $0 : nil
                    }
                    if let done { continuation.resume(returning: done) }
                }
            }
        }
        #expect(reads == (0..<20).map { Data([UInt8($0)]) })
    }

    @Test("an entry larger than the whole limit is refused with entryTooLarge")
    func tooLarge() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory, maximumSize: 1_000)
        #expect(throws: CacheError.self) { try cache.store(Data(count: 2_000), metadata: metadata, forKey: "big") }
        do {
            try cache.store(Data(count: 2_000), metadata: metadata, forKey: "big")
        } catch {
            #expect(error.code == .entryTooLarge)
        }
        #expect(filesUnder(directory.path).isEmpty)
    }

    @Test("many threads storing and reading at once leave whole entries and an exact count")
    func concurrentUse() async throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<40 {
                        let key = "k\(index % 20)"
                        try? await cache.store(
                            payload(tag: "t", key: key, minimum: 1_000, spread: 5_000), metadata: metadata, forKey: CacheKey(key))
                        if let hit = await cache.response(forKey: CacheKey("k\((index + worker) % 20)")) {
                            #expect(hit.data == payload(tag: "t", key: "k\((index + worker) % 20)", minimum: 1_000, spread: 5_000))
                        }
                    }
                }
            }
        }
        #expect(cache.count == 20)
        #expect(filesUnder(directory.path).count == 20)
    }
}
