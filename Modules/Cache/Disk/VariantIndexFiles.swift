import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk's index of variants per source: one file per source, named after the SHA-256
/// of its cache key, holding one variant key a line. A key's line breaks and backslashes
/// are written `\n`, `\r` and `\\`, so that any key (a custom key filter or
/// transformer identifier may hold a line break) is one line and reads back whole.
///
/// Processes sharing the directory coordinate with `flock` on each file. A record appends
/// its line with one `write` (`O_APPEND`) under a shared lock, on the file the path names
/// once the lock is held, so no line lands in a file that a compaction or a purge has just
/// replaced or taken. A compaction and a purge hold the exclusive lock: a purge removes
/// the file and reads it, so every line recorded before it is listed by it, and a variant
/// recorded after it starts a new file, for the next purge. Compaction (see
/// `VariantIndexFiles+Compaction.swift`) keeps a file's size proportional to the variants
/// still stored.
struct VariantIndexFiles: Sendable {
    let directory: URL
    /// Whether the entry of a variant key is still stored: compaction drops the keys it
    /// denies.
    let isStored: @Sendable (String) -> Bool
    /// A record compacts its file once the lines appended since the last compaction pass
    /// this many bytes, or the bytes of the lines that compaction kept if more.
    let compactionFloor: Int

    init(directory: URL, compactionFloor: Int = 4_096, isStored: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.directory = directory
        self.compactionFloor = compactionFloor
        self.isStored = isStored
    }

    /// Adds `variant` to `source`'s file and runs `store` (the variant's store) while the
    /// file stays locked, so that a compaction, which waits for the lock, finds the entry
    /// of every key it reads. Then compacts the file when enough has been appended since
    /// its last compaction. A failure (a full disk) leaves the variant unlisted: a purge
    /// then misses it, and the disk cache's limits remove it in time.
    func record(_ variant: String, ofSource source: String, whileListed store: () -> Void) {
        append(variant, ofSource: source, pending: false, then: store)
    }

    /// Adds `variant` to `source`'s file, to be stored after this returns: the line is
    /// marked pending, and the next compaction keeps it whether or not the entry exists
    /// yet.
    func record(_ variant: String, ofSource source: String) {
        append(variant, ofSource: source, pending: true) {}
    }

    private func append(_ variant: String, ofSource source: String, pending: Bool, then store: () -> Void) {
        // An empty key lists nothing: it names no entry.
        guard !variant.isEmpty else { return store() }
        let path = file(for: source)
        var locked = Self.openLocked(path, flags: O_WRONLY | O_APPEND | O_CREAT, lock: LOCK_SH)
        if locked == nil, errno == ENOENT {
            // The first record under this directory: the folders are made here.
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            locked = Self.openLocked(path, flags: O_WRONLY | O_APPEND | O_CREAT, lock: LOCK_SH)
        }
        guard let descriptor = locked else { return store() }
        var line = pending ? Self.pendingMark : []
        line += Self.escaped(variant)
        line.append(UInt8(ascii: "\n"))
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        store()
        let due = written == line.count && isCompactionDue(descriptor)
        // Closing releases the shared lock, which a compaction waits for.
        close(descriptor)
        if due { compact(path, always: false) }
    }

    /// Takes `source`'s file away and returns the variants it listed, each once.
    func take(_ source: String) -> [String] {
        let path = file(for: source)
        guard let descriptor = Self.openLocked(path, flags: O_RDONLY, lock: LOCK_EX) else { return [] }
        defer { close(descriptor) }
        // Under the exclusive lock no record is half done: the file holds every line
        // recorded so far, and records waiting for the lock find the path gone.
        guard unlink(path) == 0, let contents = Self.readAll(descriptor) else { return [] }
        var seen = Set<String>()
        return Self.lines(of: contents).map { Self.key(of: $0).key }.filter { seen.insert($0).inserted }
    }

    func file(for source: String) -> String {
        directory.path + "/" + SHA256Digest.hex(source.utf8)
    }

    /// `key`'s bytes with each line break and backslash written as two bytes.
    static func escaped(_ key: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + 1)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    /// The key a line of ``escaped(_:)`` wrote. A backslash before anything else (a file
    /// another writer damaged) stands for itself.
    static func unescaped(_ line: some Collection<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count)
        var escaping = false
        for byte in line {
            if escaping {
                switch byte {
                case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): bytes.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "\\"): bytes.append(byte)
                default: bytes += [UInt8(ascii: "\\"), byte]
                }
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                bytes.append(byte)
            }
        }
        if escaping { bytes.append(UInt8(ascii: "\\")) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
