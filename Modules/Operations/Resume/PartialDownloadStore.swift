import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where interrupted downloads keep what they received, so that the next download of
/// the same resource asks only for the rest.
///
/// One file per download, named by a hash of its URL and request: the bytes from byte 0,
/// with the strong validator they came with (see `ResumeValidator` in WebImageHTTP) and
/// the whole length when known. A download takes its file when it starts (the file is
/// gone from then on) and writes a new one only if it breaks off again. The files are
/// bounded like cache entries: past ``Configuration/maximumAge`` a file is ignored and
/// removed, and after each write the oldest go until the total fits in
/// ``Configuration/maximumSize``; a download larger than that is never kept.
///
/// Nothing here can fail a download: a file that cannot be written (a full disk, a
/// read-only directory) or read back is only a download that starts from byte 0.
///
/// ```swift
/// var configuration = ImageDownloader.Configuration()
/// configuration.partialDownloads = PartialDownloadStore(directory: cachesURL.appendingPathComponent("partial-downloads"))
/// ```
///
/// Writes and sweeps run on one serial queue of the store, in the order asked; a download
/// that starts waits for a write of its own file still queued (so it finds what an
/// earlier download kept), never for the writes of other files. Safe from any thread.
public final class PartialDownloadStore: Sendable {
    /// Where the files are and how far they may grow.
    public struct Configuration: Sendable {
        /// The directory of the partial files, created when the first is written. Keep it
        /// for partial files alone: files named like them are the store's to remove.
        public var directory: URL
        /// The most bytes all partial files may take together, 64 MiB by default.
        public var maximumSize: Int = 64 << 20
        /// How long a partial file may wait for its download, one day by default.
        public var maximumAge: TimeInterval = 24 * 60 * 60
        /// The clock for file dates and ages; `nil` is the system clock. Tests set it.
        public var clock: (@Sendable () -> Date)?

        public init(directory: URL) {
            self.directory = directory
        }
    }

    public let configuration: Configuration
    private let queue = DispatchQueue(label: "webimage.partial-downloads", qos: .utility)
    /// File names with a write still queued, and how many.
    private let pendingWrites = Locked<[String: Int]>([:])

    /// The directory's path, made once: a URL's path costs more than the lookup.
    private let directoryPath: String

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        self.directoryPath = configuration.directory.path
    }

    /// A store in `directory` with the default limits.
    public convenience init(directory: URL) {
        self.init(Configuration(directory: directory))
    }

    /// How many partial files there are.
    public var count: Int { queue.sync { entries().count } }

    /// The bytes the partial files take.
    public var totalSize: Int { queue.sync { entries().reduce(0) { $0 + $1.size } } }

    /// Removes the files past the maximum age, then the oldest until the rest fit in the
    /// maximum size. Runs after every write; call it to sweep at another time.
    public func sweep() {
        queue.sync { sweepFiles() }
    }

    /// Returns once every write asked for so far is on disk (or has failed): before a
    /// process exits, so that what its failed downloads kept is not lost.
    public func flush() {
        queue.sync {}
    }

    /// Removes every partial file.
    public func removeAll() {
        queue.sync {
            for entry in entries() { remove(entry.path) }
        }
    }

    // MARK: For the downloader

    /// The bytes kept for `identity`, removing their file; `nil` when there are none, or
    /// only expired or unreadable ones (removed too). Waits for a queued write of this
    /// file, and for nothing else.
    func take(_ identity: PartialDownloadIdentity) -> PartialDownload? {
        let name = identity.fileName
        // Most downloads have no write of their own queued: they do not wait for others'.
        guard pendingWrites.withLock({ $0[name] != nil }) else { return read(identity) }
        return queue.sync { read(identity) }
    }

    /// Reads and removes the file of `identity`, if it is a live one.
    private func read(_ identity: PartialDownloadIdentity) -> PartialDownload? {
        let path = path(of: identity.fileName)
        // Every download asks, and nearly all find nothing: one `stat`, where Foundation's
        // attributes made and threw an error for each missing file.
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        defer { remove(path) }
        // A file larger than the bound cannot be one the store wrote: never read it whole.
        guard !isExpired(Self.modificationDate(info)), Int(info.st_size) <= configuration.maximumSize + (64 << 10),
            let file = FileManager.default.contents(atPath: path)
        else { return nil }
        return PartialFileFormat.decode(file, expecting: identity)
    }

    private static func modificationDate(_ info: stat) -> Date {
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000)
    }

    /// Writes `partial` behind the caller's back (never on the transport's thread), then
    /// sweeps. A partial larger than the maximum size is not written.
    func keep(_ partial: PartialDownload) {
        guard partial.body.count <= configuration.maximumSize else { return }
        // Dated when kept, not when the queue gets to it.
        let date = now
        let name = partial.identity.fileName
        pendingWrites.withLock { $0[name, default: 0] += 1 }
        queue.async { [self] in
            let written = write(partial, date: date)
            pendingWrites.withLock { pending in
                pending[name] = pending[name].flatMap { $0 > 1 ? $0 - 1 : nil }
            }
            if written { sweepFiles() }
        }
    }

    // MARK: Files (on the queue)

    private struct Entry {
        var path: String
        var size: Int
        var modified: Date
    }

    private var now: Date { configuration.clock?() ?? Date() }

    private func path(of name: String) -> String {
        directoryPath + "/" + name
    }

    private func isExpired(_ modified: Date) -> Bool {
        now.timeIntervalSince(modified) > configuration.maximumAge
    }

    /// Writes a temporary file, dates it, and renames it into place; any failure
    /// removes the temporary file and keeps nothing.
    private func write(_ partial: PartialDownload, date: Date) -> Bool {
        guard let file = PartialFileFormat.encode(partial) else { return false }
        let manager = FileManager.default
        let temporary = path(of: ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        do {
            try manager.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
            try file.write(to: URL(fileURLWithPath: temporary))
            try manager.setAttributes([.modificationDate: date], ofItemAtPath: temporary)
        } catch {
            remove(temporary)
            return false
        }
        guard rename(temporary, path(of: partial.identity.fileName)) == 0 else {
            remove(temporary)
            return false
        }
        return true
    }

    private func sweepFiles() {
        removeStrayTemporaryFiles()
        var kept: [Entry] = []
        for entry in entries() {
            if isExpired(entry.modified) { remove(entry.path) } else { kept.append(entry) }
        }
        var total = kept.reduce(0) { $0 + $1.size }
        guard total > configuration.maximumSize else { return }
        for entry in kept.sorted(by: { $0.modified < $1.modified }) where total > configuration.maximumSize {
            remove(entry.path)
            total -= entry.size
        }
    }

    /// The partial files, with their sizes and dates; other files are left alone.
    private func entries() -> [Entry] {
        let manager = FileManager.default
        let directory = directoryPath
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        return names.compactMap { name in
            guard Self.isPartialFileName(name) else { return nil }
            let path = directory + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: path) else { return nil }
            return Entry(
                path: path, size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
    }

    /// Temporary files an earlier process left behind (it died while writing), after an hour.
    private func removeStrayTemporaryFiles() {
        let manager = FileManager.default
        let directory = directoryPath
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(".tmp-") {
            let path = directory + "/" + name
            let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? .distantPast
            if Date().timeIntervalSince(modified) > 60 * 60 { remove(path) }
        }
    }

    private func remove(_ path: String) {
        unlink(path)
    }

    static func isPartialFileName(_ name: String) -> Bool {
        let suffix = PartialDownloadIdentity.fileExtension
        guard name.utf8.count == 16 + suffix.utf8.count, name.hasSuffix(suffix) else { return false }
        return name.utf8.prefix(16).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
