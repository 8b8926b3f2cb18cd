import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where entries and temporary files live, and the directory scan that rebuilds the
/// index. Entry names are the 64 hex digits of the key's SHA-256, so a key is only ever
/// hashed: `../../etc/passwd` names a file inside the namespace directory like any other.
struct DiskLayout: Sendable {
    /// `<directory>/<namespace>`.
    let root: String
    let usesFanOut: Bool

    static let temporaryPrefix = ".tmp-"
    /// A temporary file whose writer is gone, or older than this, is stray.
    static let strayAge: Double = 60 * 60

    init(_ configuration: DiskCache.Configuration) {
        root = configuration.directory.appendingPathComponent(configuration.safeNamespace, isDirectory: true).path
        usesFanOut = configuration.usesFanOut
    }

    func fileName(for key: CacheKey) -> String {
        SHA256Digest.hex(key.string.utf8)
    }

    func folder(forName name: String) -> String {
        usesFanOut ? root + "/" + name.prefix(2) : root
    }

    func path(forName name: String) -> String {
        folder(forName: name) + "/" + name
    }

    /// A name no other writer uses: this process's id, a per-process counter, and
    /// random bits (against a recycled pid in another pid namespace).
    func temporaryPath(counter: UInt64) -> String {
        "\(root)/\(Self.temporaryPrefix)\(getpid())-\(counter)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    }

    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Every entry file with its size and dates, removing stray temporary files on the
    /// way. Files that are not named like entries are left alone.
    func scan(now: Double) -> [String: DiskIndex.Record] {
        var records: [String: DiskIndex.Record] = [:]
        func visit(_ folder: String, entries: [String]) {
            for name in entries where Self.isEntryName(name) {
                guard let status = DiskFileIO.status(path: folder + "/" + name), status.isRegular else { continue }
                records[name] = DiskIndex.Record(
                    size: status.size, accessDate: status.accessDate, modificationDate: status.modificationDate)
            }
        }
        let top = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        removeStrayTemporaries(top, now: now)
        if usesFanOut {
            for name in top where name.utf8.count == 2 {
                let folder = root + "/" + name
                visit(folder, entries: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            }
        } else {
            visit(root, entries: top)
        }
        return records
    }

    /// Removes temporary files left by a writer that died (its pid is gone) or that are
    /// older than an hour. A live writer's file is kept: it is about to be renamed.
    private func removeStrayTemporaries(_ names: [String], now: Double) {
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let path = root + "/" + name
            let pidText = name.dropFirst(Self.temporaryPrefix.count).prefix { $0 != "-" }
            let writerGone: Bool
            if let pid = Int32(pidText), pid > 0 {
                writerGone = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            } else {
                writerGone = true
            }
            let old = DiskFileIO.status(path: path).map { now - $0.modificationDate > Self.strayAge } ?? false
            if writerGone || old { unlink(path) }
        }
    }
}
