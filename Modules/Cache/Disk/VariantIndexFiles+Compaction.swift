import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Compaction: a file rewritten with each key once, without the keys whose entries are
// gone, so that its size follows the variants still stored rather than the records made.
//
// A compacted file starts with the line `\c <bytes of the kept lines>`; a key recorded
// without its store (`record` without `store`) is written after the mark `\p`, pending:
// its entry may not exist yet, so the next compaction keeps it (unmarked, checked at the
// one after). No escaped key starts with a backslash and a `c` or a `p`. A record
// compacts when the bytes appended since the last compaction pass the bytes it kept (or
// the floor): the work is amortised over the records, and a file holds at most about
// twice the keys of stored (or pending) variants, plus the floor.
extension VariantIndexFiles {
    static let headerMark = Array("\\c ".utf8)
    static let pendingMark = Array("\\p".utf8)

    /// The header line's length and the bytes of the lines kept after it, for a
    /// compacted file; zero and zero otherwise.
    static func header(of bytes: some Collection<UInt8>) -> (length: Int, kept: Int) {
        guard bytes.starts(with: headerMark), let end = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let kept = Int(String(decoding: bytes[bytes.startIndex..<end].dropFirst(headerMark.count), as: UTF8.self)),
            kept >= 0
        else { return (0, 0) }
        return (bytes.distance(from: bytes.startIndex, to: end) + 1, kept)
    }

    /// The key a line lists, and whether it is pending.
    static func key(of line: ArraySlice<UInt8>) -> (key: String, pending: Bool) {
        line.starts(with: pendingMark) ? (unescaped(line.dropFirst(pendingMark.count)), true) : (unescaped(line), false)
    }

    /// Whether the open file has grown enough since its last compaction to compact it.
    func isCompactionDue(_ descriptor: Int32) -> Bool {
        guard let size = DiskFileIO.status(fd: descriptor)?.size, size > compactionFloor else { return false }
        var start = [UInt8](repeating: 0, count: 32)
        let count = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let header = Self.header(of: start.prefix(max(count, 0)))
        let appended = size - header.length - header.kept
        // Less than nothing appended: a damaged header, which compaction rewrites.
        return appended < 0 || appended > max(header.kept, compactionFloor)
    }

    /// Rewrites the file at `path` (when its growth calls for it, or `always`) with each
    /// key once: the pending keys, and the others whose entries ``isStored`` finds; a
    /// file left with no key is removed. Runs under the file's exclusive lock and replaces
    /// the file by a rename, so records wait and then append to the new file, and a purge
    /// takes the old file or the new one, whole.
    func compact(_ path: String, always: Bool) {
        guard let descriptor = Self.openLocked(path, flags: O_RDONLY, lock: LOCK_EX) else { return }
        // Closing releases the lock, after the rename.
        defer { close(descriptor) }
        guard always || isCompactionDue(descriptor), let contents = Self.readAll(descriptor) else { return }
        var kept = Set<String>()
        var gone = Set<String>()
        var body: [UInt8] = []
        for line in Self.lines(of: contents) {
            let (key, pending) = Self.key(of: line)
            guard !kept.contains(key), pending || !gone.contains(key) else { continue }
            if pending || isStored(key) {
                kept.insert(key)
                body += line.dropFirst(pending ? Self.pendingMark.count : 0)
                body.append(UInt8(ascii: "\n"))
            } else {
                gone.insert(key)
            }
        }
        guard !body.isEmpty else {
            unlink(path)
            return
        }
        // A compacted file that would be written again as it is (a trim finds most files
        // so) keeps its bytes: no write, no rename.
        let header = Self.header(of: contents)
        if header.length > 0, header.kept == body.count, contents[header.length...].elementsEqual(body) { return }
        let temporary = path + ".compacting-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        do {
            let headerLine = Self.headerMark + Array("\(body.count)\n".utf8)
            try DiskFileIO.writeNewFile(temporary, header: headerLine, data: Data(body), trailer: [], dates: nil)
        } catch {
            // A full disk: the file stays as it was, complete.
            return
        }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Compacts every file of the index, which removes those whose variants are all
    /// gone, and removes temporary files that compactions killed midway left behind.
    /// Costs a read of the index and a `stat` per listed key.
    func compactAll(now: Double) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let path = directory.path + "/" + name
            if DiskLayout.isEntryName(name) {
                compact(path, always: true)
            } else if name.contains(".compacting-"),
                let status = DiskFileIO.status(path: path), now - status.modificationDate > DiskLayout.strayAge
            {
                unlink(path)
            }
        }
    }

    /// Opens `path` and locks it with `lock` (`LOCK_SH` or `LOCK_EX`), making sure the
    /// locked file is still the one the path names: a compaction or a purge may have
    /// replaced or removed it while this waited for the lock. `nil` when the path names
    /// no file (and `flags` does not create one) or a call failed; `errno` then says why.
    static func openLocked(_ path: String, flags: Int32, lock: Int32) -> Int32? {
        while true {
            let descriptor = open(path, flags | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
            var result: Int32
            repeat { result = flock(descriptor, lock) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let code = errno
                close(descriptor)
                errno = code
                return nil
            }
            if let held = DiskFileIO.status(fd: descriptor), let named = DiskFileIO.status(path: path),
                held.inode == named.inode, held.device == named.device
            {
                return descriptor
            }
            close(descriptor)
        }
    }

    /// The whole content of an open file.
    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max(DiskFileIO.status(fd: descriptor)?.size ?? 0, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, $0.count - count, off_t(count)) }
            if result < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if result == 0 { return Array(bytes.prefix(count)) }
            count += result
        }
    }

    /// The key lines of a file's bytes, without the header and empty lines.
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes[header(of: bytes).length...].split(separator: UInt8(ascii: "\n"))
    }
}
