import Foundation
import Testing
import WebImageCache
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Disk cache: damaged, foreign and stray files")
struct DiskCacheDamageTests {
    let metadata = CachedResponseMetadata(contentType: "image/gif", etag: "e", maxAge: 60, storedAt: Date(timeIntervalSince1970: 10))

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncated, extended, empty, badMagic, otherVersion, hugeLengths, badMetadata, garbage, headerOnly
        var testDescription: String { rawValue }

        func apply(to bytes: inout [UInt8]) {
            switch self {
            case .truncated: bytes.removeLast(10)
            case .extended: bytes.append(0)
            case .empty: bytes = []
            case .badMagic: bytes[0] ^= 0xFF
            case .otherVersion: bytes[4] = 3
            case .hugeLengths: for index in 8..<24 { bytes[index] = 0xFF }
            // After the two dates (16 bytes) in the metadata comes the count of header
            // fields: far more than the bytes that follow could hold.
            case .badMetadata: for index in (24 + 5_000 + 16)..<(24 + 5_000 + 20) { bytes[index] = 0xFF }
            case .garbage: bytes = (0..<6_000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            case .headerOnly: bytes.removeLast(bytes.count - 24)
            }
        }
    }

    @Test("a damaged entry file is a miss and is removed", arguments: Damage.allCases)
    func damagedFile(damage: Damage) throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(Data(repeating: 3, count: 5_000), metadata: metadata, forKey: "victim")
        try cache.store(Data(repeating: 4, count: 5_000), metadata: metadata, forKey: "bystander")
        let path = cache.entryPath("victim")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        damage.apply(to: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(cache.response(forKey: "victim") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.count == 1)
        #expect(cache.response(forKey: "bystander")?.data == Data(repeating: 4, count: 5_000))
    }

    @Test("another key's entry under this key's name (a collision or a copied file) is a miss")
    func foreignKey() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(Data("mine".utf8), metadata: metadata, forKey: "a")
        try cache.store(Data("other".utf8), metadata: metadata, forKey: "b")
        // Same length keys, so only the key bytes tell them apart.
        try FileManager.default.removeItem(atPath: cache.entryPath("a"))
        try FileManager.default.copyItem(atPath: cache.entryPath("b"), toPath: cache.entryPath("a"))
        #expect(cache.response(forKey: "a") == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.entryPath("a")))
        #expect(cache.response(forKey: "b")?.data == Data("other".utf8))
    }

    @Test("a directory where an entry should be is a miss, not a crash")
    func directoryInPlace() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try FileManager.default.createDirectory(atPath: cache.entryPath("dir"), withIntermediateDirectories: true)
        #expect(cache.response(forKey: "dir") == nil)
        #expect(throws: CacheError.self) { try cache.store(Data("x".utf8), metadata: metadata, forKey: "dir") }
        #expect(filesUnder(directory.path).isEmpty)  // the temporary file did not stay
    }

    @Test("files not named like entries are left alone and not counted")
    func unrelatedFiles() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(Data("x".utf8), metadata: metadata, forKey: "k")
        let notes = cache.directoryURL.appendingPathComponent("README")
        try Data("not an entry".utf8).write(to: notes)
        let reopened = DiskCache.testCache(in: directory)
        #expect(reopened.count == 1)
        reopened.removeAll()
        #expect(FileManager.default.fileExists(atPath: notes.path))
    }

    @Test("temporary files of dead writers, or over an hour old, are removed when the cache opens; a live writer's stay")
    func strayTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let first = DiskCache.testCache(in: directory)
        try first.store(Data("x".utf8), metadata: metadata, forKey: "k")
        let root = first.directoryURL.path
        // A pid no process has: the largest below pid_max that kill() reports as absent.
        let deadPID = try #require((1..<100).lazy.map { Int32(4_194_304 - $0) }.first { kill($0, 0) != 0 && errno == ESRCH })
        let dead = "\(root)/.tmp-\(deadPID)-1-ab"
        let live = "\(root)/.tmp-\(getpid())-999-cd"
        let old = "\(root)/.tmp-1-5-ef"  // pid 1 is alive, but the file is two hours old
        for path in [dead, live, old] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        var twoHoursAgo = [timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &twoHoursAgo, 0) == 0)

        let reopened = DiskCache.testCache(in: directory)
        #expect(reopened.count == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
