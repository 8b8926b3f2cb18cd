import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCache
@testable import WebImageCore

@Suite("Disk cache: reading an entry's metadata alone")
struct DiskCacheMetadataTests {
    let metadata = CachedResponseMetadata.everyField(contentType: "image/jpeg")

    /// Bytes this thread has had read for it so far (`rchar` of /proc/thread-self/io:
    /// every `read` and `pread`, the page cache's included).
    private func bytesReadByThisThread() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    @Test("the metadata comes back as a full read gives it, and reading it reads none of the entry's 4 MB")
    func readsNoBody() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let key: CacheKey = "https://example.com/large.jpg"
        try cache.store(Data(repeating: 0xA5, count: 4 << 20), metadata: metadata, forKey: key)

        // Synchronous calls: the I/O runs on this thread, between the two readings.
        let beforeMetadata = try bytesReadByThisThread()
        let read = cache.metadata(forKey: key)
        let metadataBytes = try bytesReadByThisThread() - beforeMetadata
        let beforeFull = try bytesReadByThisThread()
        let full = cache.response(forKey: key)
        let fullBytes = try bytesReadByThisThread() - beforeFull

        #expect(read == metadata)
        #expect(read == full?.metadata)
        #expect(fullBytes >= 4 << 20, "the full read reads the body (and shows the counter counts)")
        #expect(metadataBytes < 64 << 10, "the metadata read read \(metadataBytes) bytes")
    }

    @Test("an absent, damaged or foreign entry has no metadata; the damaged one is removed")
    func badEntries() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        #expect(cache.metadata(forKey: "absent") == nil)
        try cache.store(Data("abc".utf8), metadata: metadata, forKey: "k")
        // Another key's file under this key's name: a hash collision, or a file put there.
        let path = cache.entryPath("k")
        try FileManager.default.removeItem(atPath: path)
        try cache.store(Data("xyz".utf8), metadata: metadata, forKey: "other")
        try FileManager.default.copyItem(atPath: cache.entryPath("other"), toPath: path)
        #expect(cache.metadata(forKey: "k") == nil)
        // Truncated: the lengths no longer add up.
        try cache.store(Data("abc".utf8), metadata: metadata, forKey: "k")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 30)
        try handle.close()
        #expect(cache.metadata(forKey: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: path), "the damaged file is removed")
    }

    @Test("an entry past the maximum age has no metadata either")
    func expired() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumAge: 60)
        try cache.store(Data("abc".utf8), metadata: metadata, forKey: "k")
        #expect(cache.metadata(forKey: "k") != nil)
        clock.advance(120)
        #expect(cache.metadata(forKey: "k") == nil)
    }
}
