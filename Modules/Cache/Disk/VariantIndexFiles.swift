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
        var line = Self.escaped(variant)
        line.append(UInt8(ascii: "\n"))
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
        return contents.split(separator: UInt8(ascii: "\n")).map(Self.unescaped).filter { seen.insert($0).inserted }
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
    static func unescaped(_ line: Data.SubSequence) -> String {
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

    private func file(for source: String) -> String {
        directory.path + "/" + SHA256Digest.hex(source.utf8)
    }
}
