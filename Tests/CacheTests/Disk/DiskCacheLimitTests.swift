import Foundation
import Testing
import WebImageCache
import WebImageCore
import WebImageTestSupport

@Suite("Disk cache: size limit, eviction order and expiry")
struct DiskCacheLimitTests {
    let metadata = CachedResponseMetadata(contentType: "image/jpeg", storedAt: Date(timeIntervalSince1970: 0))
    let body = Data(repeating: 0xAB, count: 1_000)

    /// The size of one entry file of `body` under a key as long as `key`.
    func entrySize(_ key: CacheKey = "k0") throws -> Int {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(body, metadata: metadata, forKey: key)
        return cache.totalSize
    }

    func present(_ cache: DiskCache, _ keys: [String]) -> [String] {
        keys.filter { FileManager.default.fileExists(atPath: cache.entryPath(CacheKey($0))) }
    }

    @Test("past the maximum size, the least recently used go first, down to 90 %")
    func leastRecentlyUsedFirst() throws {
        let size = try entrySize()
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumSize: size * 5 + size / 2)
        for index in 0..<5 {
            try cache.store(body, metadata: metadata, forKey: CacheKey("k\(index)"))
            clock.advance(100)
        }
        #expect(cache.response(forKey: "k0") != nil)  // k0 is now the most recent
        clock.advance(100)
        try cache.store(body, metadata: metadata, forKey: "k5")
        // Six entries are over the limit; 90 % of it holds four: k1 and k2 go.
        #expect(present(cache, ["k0", "k1", "k2", "k3", "k4", "k5"]) == ["k0", "k3", "k4", "k5"])
        #expect(cache.count == 4)
        #expect(cache.totalSize == size * 4)
        #expect(cache.totalSize <= size * 5 + size / 2)
    }

    @Test("by modification date, reads do not save an entry from eviction")
    func oldestWrittenFirst() throws {
        let size = try entrySize()
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumSize: size * 5 + size / 2, expiry: .modificationDate)
        for index in 0..<5 {
            try cache.store(body, metadata: metadata, forKey: CacheKey("k\(index)"))
            clock.advance(100)
        }
        #expect(cache.response(forKey: "k0") != nil)
        try cache.store(body, metadata: metadata, forKey: "k5")
        #expect(present(cache, ["k0", "k1", "k2", "k3", "k4", "k5"]) == ["k2", "k3", "k4", "k5"])
    }

    @Test("access dates live in the files, so another cache on the directory evicts in the same order")
    func accessDatesAreShared() throws {
        let size = try entrySize()
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let writer = DiskCache.testCache(in: directory, clock: clock, maximumSize: size * 5 + size / 2)
        for index in 0..<5 {
            try writer.store(body, metadata: metadata, forKey: CacheKey("k\(index)"))
            clock.advance(100)
        }
        #expect(writer.response(forKey: "k0") != nil)
        clock.advance(100)
        let other = DiskCache.testCache(in: directory, clock: clock, maximumSize: size * 5 + size / 2)
        #expect(other.count == 5)
        try other.store(body, metadata: metadata, forKey: "k5")
        #expect(present(other, ["k0", "k1", "k2", "k3", "k4", "k5"]) == ["k0", "k3", "k4", "k5"])
    }

    @Test("the limit holds during a long run of stores, not only at a later clean-up")
    func limitHoldsWhileWriting() throws {
        let size = try entrySize("k00")
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory, maximumSize: size * 20)
        for index in 0..<200 {
            try cache.store(body, metadata: metadata, forKey: CacheKey("k" + String(100 + index % 100).dropFirst()))
            #expect(cache.totalSize <= size * 20)
        }
        let onDisk = filesUnder(directory.path).count
        #expect(onDisk == cache.count)
        #expect(onDisk >= 18 && onDisk <= 20)
    }

    @Test("by access date, an entry read recently outlives one that was not")
    func expiryByAccessDate() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumAge: 1_000)
        try cache.store(body, metadata: metadata, forKey: "read")
        try cache.store(body, metadata: metadata, forKey: "idle")
        clock.advance(600)
        #expect(cache.response(forKey: "read") != nil)
        clock.advance(600)
        #expect(cache.response(forKey: "idle") == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.entryPath("idle")))
        #expect(cache.response(forKey: "read") != nil)
        #expect(cache.count == 1)
    }

    @Test("by modification date, reads do not extend an entry's life")
    func expiryByModificationDate() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumAge: 1_000, expiry: .modificationDate)
        try cache.store(body, metadata: metadata, forKey: "read")
        clock.advance(600)
        #expect(cache.response(forKey: "read") != nil)
        clock.advance(600)
        #expect(cache.response(forKey: "read") == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.entryPath("read")))
    }

    @Test("removeExpired removes only the entries past the maximum age")
    func removeExpired() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumAge: 1_000)
        try cache.store(body, metadata: metadata, forKey: "old")
        clock.advance(800)
        try cache.store(body, metadata: metadata, forKey: "young")
        clock.advance(400)
        cache.removeExpired()
        #expect(present(cache, ["old", "young"]) == ["young"])
        #expect(cache.count == 1)
    }

    @Test("trim re-syncs this process's view with what others wrote and removed")
    func trimRescans() throws {
        let directory = try TemporaryDirectory()
        let mine = DiskCache.testCache(in: directory)
        #expect(mine.count == 0)
        let theirs = DiskCache.testCache(in: directory)
        for index in 0..<4 { try theirs.store(body, metadata: metadata, forKey: CacheKey("k\(index)")) }
        theirs.removeResponse(forKey: "k0")
        #expect(mine.count == 0)
        mine.trim()
        #expect(mine.count == 3)
        #expect(mine.totalSize == theirs.totalSize)
    }
}
