import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls the disk cache makes, with errno turned into ``CacheError``.
/// Plain syscalls rather than FileManager: each costs one call, and errno says exactly
/// why a write failed (full disk, read-only, not a directory).
enum DiskFileIO {
    /// The error for a write that failed with `code` while doing `what`.
    static func writeError(_ code: Int32, _ what: String) -> CacheError {
        let reason = String(cString: strerror(code))
        switch code {
        // EFBIG: the process's file-size limit (RLIMIT_FSIZE) is a quota too.
        case ENOSPC, EDQUOT, EFBIG:
            return CacheError(.diskFull, "\(what): \(reason)", errno: code)
        case EACCES, EPERM, EROFS, ENOTDIR, EEXIST, ELOOP:
            return CacheError(.unwritableDirectory, "\(what): \(reason)", errno: code)
        default:
            return CacheError(.writeFailed, "\(what): \(reason)", errno: code)
        }
    }

    /// Creates `path` and its missing parents (mode 0755).
    static func makeDirectory(_ path: String) throws(CacheError) {
        if mkdir(path, 0o755) == 0 { return }
        let code = errno
        if code == EEXIST {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw CacheError(.unwritableDirectory, "\(path) exists and is not a directory", errno: ENOTDIR)
        }
        if code == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { throw writeError(code, "mkdir \(path)") }
            try makeDirectory(parent)
            if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
            throw writeError(errno, "mkdir \(path)")
        }
        throw writeError(code, "mkdir \(path)")
    }

    /// Writes the three parts to a new file at `path` (which must not exist), with one
    /// `writev` in the usual case. No fsync: see ``DiskCache``. On failure the file is removed.
    static func writeNewFile(
        _ path: String, header: [UInt8], data: Data, trailer: [UInt8], dates: Date?
    ) throws(CacheError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw writeError(errno, "create \(path)") }
        var failure: CacheError?
        let total = header.count + data.count + trailer.count
        var written = 0
        header.withUnsafeBytes { head in
            data.withUnsafeBytes { body in
                trailer.withUnsafeBytes { tail in
                    let parts = [head, body, tail]
                    while written < total {
                        // Rebuild the vector from what is left: a short write (a quota, a
                        // signal) resumes where it stopped.
                        var vectors: [iovec] = []
                        var skip = written
                        for part in parts {
                            if skip >= part.count {
                                skip -= part.count
                                continue
                            }
                            vectors.append(
                                iovec(iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress! + skip), iov_len: part.count - skip))
                            skip = 0
                        }
                        let result = writev(fd, vectors, Int32(vectors.count))
                        if result < 0 {
                            if errno == EINTR { continue }
                            failure = writeError(errno, "write \(path)")
                            return
                        }
                        if result == 0 {
                            failure = writeError(ENOSPC, "write \(path)")
                            return
                        }
                        written += result
                    }
                }
            }
        }
        if failure == nil, let dates {
            var times = [timespec(date: dates), timespec(date: dates)]
            if futimens(fd, &times) != 0 { failure = writeError(errno, "set dates of \(path)") }
        }
        // close can report a deferred write error (NFS, some quotas): it counts.
        if close(fd) != 0, failure == nil { failure = writeError(errno, "close \(path)") }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// An open file's size and dates.
    struct Status {
        var size: Int
        var accessDate: Double
        var modificationDate: Double
        var device: UInt64
        var inode: UInt64
        var isRegular: Bool
    }

    static func status(_ info: stat) -> Status {
        Status(
            size: Int(info.st_size),
            accessDate: Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) * 1e-9,
            modificationDate: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) * 1e-9,
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            isRegular: (info.st_mode & S_IFMT) == S_IFREG
        )
    }

    static func status(fd: Int32) -> Status? {
        var info = stat()
        return fstat(fd, &info) == 0 ? status(info) : nil
    }

    static func status(path: String) -> Status? {
        var info = stat()
        return lstat(path, &info) == 0 ? status(info) : nil
    }

    /// Removes `path` only if it is still the file `expected` describes, so that a
    /// damaged entry found by one thread never takes a fresh entry another thread has
    /// just renamed into place.
    static func removeIfSame(_ path: String, as expected: Status) {
        guard let now = status(path: path), now.inode == expected.inode, now.device == expected.device else { return }
        unlink(path)
    }

    // Glibc hides these behind _GNU_SOURCE / the kernel headers; their values are the
    // same on every Linux architecture Swift runs on (x86_64, aarch64).
    private static let oNoAtime: Int32 = 0o1000000
    private static let utimeOmit = (1 << 30) - 2

    /// Opens for reading without touching the access date (the cache sets it itself);
    /// O_NOATIME is refused for files another user owns, so fall back to a plain open.
    static func openForReading(_ path: String) -> Int32 {
        #if os(Linux)
            let fd = open(path, O_RDONLY | O_CLOEXEC | oNoAtime)
            if fd >= 0 || errno != EPERM { return fd }
        #endif
        return open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Reads exactly `first` then `second` from `offset` in `fd` (the start by default; one
    /// `preadv` in the usual case); false on a short file or an error.
    static func readFully(
        _ fd: Int32, _ first: UnsafeMutableRawBufferPointer, _ second: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0),
        at offset: Int = 0
    ) -> Bool {
        let total = first.count + second.count
        var done = 0
        while done < total {
            var vectors = (iovec(), iovec())
            var vectorCount: Int32 = 1
            if done < first.count {
                vectors.0 = iovec(iov_base: first.baseAddress! + done, iov_len: first.count - done)
                if second.count > 0 {
                    vectors.1 = iovec(iov_base: second.baseAddress!, iov_len: second.count)
                    vectorCount = 2
                }
            } else {
                vectors.0 = iovec(iov_base: second.baseAddress! + (done - first.count), iov_len: total - done)
            }
            let result = withUnsafePointer(to: &vectors) {
                $0.withMemoryRebound(to: iovec.self, capacity: 2) { preadv(fd, $0, vectorCount, off_t(offset + done)) }
            }
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            if result == 0 { return false }
            done += result
        }
        return true
    }

    /// Reads exactly `buffer.count` bytes of `fd` from `offset` (one `pread` in the usual
    /// case); false on a short file or an error.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        readFully(fd, buffer, at: offset)
    }

    /// Sets the access date of an open file, leaving the modification date alone.
    static func setAccessDate(_ fd: Int32, _ date: Date) {
        var times = [timespec(date: date), timespec(tv_sec: 0, tv_nsec: utimeOmit)]
        _ = futimens(fd, &times)
    }
}

extension timespec {
    init(date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        self.init(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }
}
