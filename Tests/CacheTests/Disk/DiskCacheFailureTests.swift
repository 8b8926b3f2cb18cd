import Foundation
import Testing
import WebImageCache
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Disk cache: unwritable directories and full disks")
struct DiskCacheFailureTests {
    let metadata = CachedResponseMetadata(contentType: "image/png", storedAt: Date(timeIntervalSince1970: 1))

    @Test("a cache directory that is really a regular file makes the store throw unwritableDirectory")
    func directoryIsAFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let cache = DiskCache(DiskCache.Configuration(directory: file, namespace: "tests"))
        #expect(throws: CacheError.self) { try cache.store(Data("x".utf8), metadata: metadata, forKey: "k") }
        do {
            try cache.store(Data("x".utf8), metadata: metadata, forKey: "k")
        } catch {
            #expect(error.code == .unwritableDirectory)
        }
        #expect(cache.response(forKey: "k") == nil)
        #expect(cache.count == 0)
    }

    @Test("a read-only directory makes the store throw unwritableDirectory, and reads still hit")
    func readOnlyDirectory() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        try cache.store(Data("kept".utf8), metadata: metadata, forKey: "kept")
        let root = cache.directoryURL.path
        #expect(chmod(root, 0o555) == 0)
        defer { chmod(root, 0o755) }

        if geteuid() == 0 {
            // Permission bits do not stop root, so the attempt runs in the writer process
            // after it has become nobody.
            let run = try CacheWriter.run(["unwritable", directory.path, "tests", "kept"])
            #expect(run.status == 0)
            #expect(run.lines == ["uid 65534", "store unwritableDirectory", "read hit"])
        } else {
            #expect(throws: CacheError.self) { try cache.store(Data("new".utf8), metadata: metadata, forKey: "new-entry") }
            do {
                try cache.store(Data("new".utf8), metadata: metadata, forKey: "new-entry")
            } catch {
                #expect(error.code == .unwritableDirectory)
            }
            #expect(cache.response(forKey: "kept")?.data == Data("kept".utf8))
        }
        #expect(filesUnder(root).count == 1)  // only "kept": no temporary file stayed
    }

    @Test("a write past the process's file-size limit throws diskFull, leaves no file, and earlier entries stay")
    func fileSizeLimit() throws {
        let directory = try TemporaryDirectory()
        let run = try CacheWriter.run(["fsize", directory.path, "tests", "\(256 << 10)"])
        #expect(run.status == 0)
        #expect(run.lines == ["small ok", "large diskFull errno \(EFBIG)", "small reads back", "large absent"])
        #expect(filesUnder(directory.path).count == 1)
    }

    @Test(
        "on a full file system the store throws diskFull, leaves no temporary file, and the cache keeps serving",
        .enabled("needs root and a mountable tmpfs (the file-size-limit test covers the failure path otherwise)") {
            SmallFileSystem.isAvailable
        }
    )
    func fullDisk() throws {
        let fileSystem = try SmallFileSystem(size: "256k")
        defer { withExtendedLifetime(fileSystem) {} }
        let directory = fileSystem.directory
        let cache = DiskCache.testCache(in: directory)
        var stored: [String] = []
        var failure: CacheError?
        for index in 0..<100 {
            do {
                try cache.store(
                    payload(tag: "full", key: "k\(index)", minimum: 30_000, spread: 1), metadata: metadata, forKey: CacheKey("k\(index)"))
                stored.append("k\(index)")
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(error.code == .diskFull)
        #expect(error.errno == ENOSPC)
        #expect(stored.count >= 3)
        for key in stored {
            #expect(cache.response(forKey: CacheKey(key))?.data == payload(tag: "full", key: key, minimum: 30_000, spread: 1))
        }
        #expect(filesUnder(directory.path).count == stored.count)
        #expect(cache.count == stored.count)
        // Room made by a removal is used again.
        cache.removeResponse(forKey: CacheKey(stored[0]))
        try cache.store(Data("small".utf8), metadata: metadata, forKey: "after")
        #expect(cache.response(forKey: "after")?.data == Data("small".utf8))
    }
}
