import Dispatch
import Foundation
import WebImageCache
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// The disk cache hot paths, each beside the bare system calls on the same
/// bytes in the same directory tree (under the temporary directory, which must be on a
/// real disk for the figures to mean anything: see the README).
enum DiskCacheCases {
    static let entryBytes = 50_000
    /// Distinct entries the operations cycle through (all in the page cache).
    static let entries = 64
    static let readsPerRun = 500
    static let writesPerRun = 300

    /// Removed at exit; a static so the C `atexit` callback can reach it.
    nonisolated(unsafe) static var root: String?

    static func all() throws -> [BenchmarkCase] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-disk-\(getpid())")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = base.path
        atexit { if let root = DiskCacheCases.root { try? FileManager.default.removeItem(atPath: root) } }

        let body = Data((0..<entryBytes).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        let metadata = CachedResponseMetadata(
            contentType: "image/jpeg", etag: "\"bench-etag-0001\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", maxAge: 86_400)
        let keys = (0..<entries).map { CacheKey("https://images.example.com/photos/\($0).jpg") }
        let cache = DiskCache(DiskCache.Configuration(directory: base, namespace: "cache"))
        for key in keys { try cache.store(body, metadata: metadata, forKey: key) }

        let bare = base.appendingPathComponent("bare").path
        try FileManager.default.createDirectory(atPath: bare, withIntermediateDirectories: true)
        let barePaths = (0..<entries).map { "\(bare)/\($0)" }
        for path in barePaths { try BareFile.writeAndRename(body, to: path, temporary: path + ".tmp") }

        // Both sides must hand back the same bytes, or the run stops.
        for index in 0..<entries {
            guard cache.response(forKey: keys[index])?.data == body, try BareFile.read(barePaths[index]) == body else {
                throw Baseline.Failure(description: "disk cache: entry \(index) does not read back as stored")
            }
        }

        let asyncCache = DiskCache(DiskCache.Configuration(directory: base, namespace: "async"))
        return [
            BenchmarkCase(
                section: .diskCache,
                name: "Disk read hit 50 KB (x\(readsPerRun))",
                contenders: [
                    Contender(name: "ours") {
                        for index in 0..<readsPerRun { consume(cache.response(forKey: keys[index % entries])) }
                    },
                    Contender(name: "open/fstat/read/close") {
                        for index in 0..<readsPerRun { consume(try BareFile.read(barePaths[index % entries])) }
                    },
                ], imagesPerRun: readsPerRun, comparisons: [.time(.atMost(1.3))]),
            BenchmarkCase(
                section: .diskCache,
                name: "Disk write 50 KB (x\(writesPerRun))",
                contenders: [
                    Contender(name: "ours") {
                        for index in 0..<writesPerRun { try cache.store(body, metadata: metadata, forKey: keys[index % entries]) }
                    },
                    Contender(name: "write temp + rename") {
                        for index in 0..<writesPerRun {
                            let path = barePaths[index % entries]
                            try BareFile.writeAndRename(body, to: path, temporary: path + ".tmp")
                        }
                    },
                ], imagesPerRun: writesPerRun, comparisons: [.time(.atMost(1.5))]),
            // The caller only enqueues; the time is until every store has completed on the
            // cache's queue, so it is throughput, not the caller's cost.
            BenchmarkCase(
                section: .diskCache,
                name: "Disk write 50 KB async (x\(writesPerRun))",
                contenders: [
                    Contender(name: "ours async") {
                        let group = DispatchGroup()
                        for index in 0..<writesPerRun {
                            group.enter()
                            asyncCache.store(body, metadata: metadata, forKey: keys[index % entries]) { _ in group.leave() }
                        }
                        group.wait()
                    },
                    Contender(name: "write temp + rename") {
                        for index in 0..<writesPerRun {
                            let path = barePaths[index % entries]
                            try BareFile.writeAndRename(body, to: path, temporary: path + ".tmp")
                        }
                    },
                ], imagesPerRun: writesPerRun),
        ]
    }
}

/// The shortest honest file read and atomic write: what the disk cache is measured
/// against.
enum BareFile {
    static func read(_ path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Baseline.Failure(description: "open \(path): errno \(errno)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Baseline.Failure(description: "fstat \(path)") }
        let size = Int(info.st_size)
        guard let buffer = malloc(max(size, 1)) else { throw Baseline.Failure(description: "malloc") }
        var done = 0
        while done < size {
            let count = Glibc.read(fd, buffer + done, size - done)
            guard count > 0 else {
                free(buffer)
                throw Baseline.Failure(description: "read \(path)")
            }
            done += count
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    static func writeAndRename(_ data: Data, to path: String, temporary: String) throws {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Baseline.Failure(description: "open \(temporary): errno \(errno)") }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else { throw Baseline.Failure(description: "write \(path)") }
    }
}
