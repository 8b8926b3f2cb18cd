import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk's index of variants per source: one file per source, named after the SHA-256
/// of its cache key, holding one variant key a line.
///
/// A line is added with one `write` to a file opened with `O_APPEND`, so processes sharing
/// the directory add lines without losing each other's. A purge first renames the file
/// away (only one purge gets it), then reads it: a variant recorded after that rename
/// starts a new file, for the next purge.
struct VariantIndexFiles: Sendable {
    let directory: URL

    /// Adds `variant` to `source`'s file. A failure (a full disk) leaves the variant
    /// unlisted: a purge then misses it, and the disk cache's limits remove it in time.
    func record(_ variant: String, ofSource source: String) {
        let path = file(for: source)
        var descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            // The first record under this directory: the folders are made here.
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let line = Array((variant + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Takes `source`'s file away and returns the variants it listed, each once.
    func take(_ source: String) -> [String] {
        let path = file(for: source)
        let claimed = path + ".purging-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard rename(path, claimed) == 0 else { return [] }
        defer { unlink(claimed) }
        guard let contents = FileManager.default.contents(atPath: claimed) else { return [] }
        var seen = Set<String>()
        return String(decoding: contents, as: UTF8.self).split(separator: "\n").map(String.init).filter {
            seen.insert($0).inserted
        }
    }

    private func file(for source: String) -> String {
        directory.path + "/" + SHA256Digest.hex(source.utf8)
    }
}
