import Dispatch
import Foundation
import Synchronization
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A persistent cache of downloaded bytes with their HTTP metadata, one file per entry.
///
/// Each entry is a file named after the SHA-256 of its key, in the namespace's directory;
/// the file holds a small header, the bytes, the metadata and the key, so a file that is
/// truncated, damaged, from another program or from a hash collision is a miss and is
/// removed. Writes go to a temporary file that is renamed over the entry, so a reader
/// (in this process or another) sees the old entry or the new one, never a mix, and a
/// process killed mid-write leaves at most a temporary file, cleaned up later.
///
/// There is no fsync per entry: after a power loss or a kernel crash, recent entries may
/// be missing (or, on some file systems, empty and then detected as damaged), but an entry
/// never reads back wrong. The bytes themselves carry no checksum.
///
/// Limits hold while the process runs: a store that takes the total past
/// ``Configuration/maximumSize`` evicts, least recently used first (or oldest by
/// modification date), down to 90 % of it; an entry past ``Configuration/maximumAge`` is a
/// miss on read and is removed. Reads set the file's access date themselves (at most once
/// a minute per entry), because `relatime` mounts do not keep it, so other processes see
/// the same recency.
///
/// Several processes may share a directory: entries are never corrupted, but each keeps
/// its own count of the total size, learnt from a directory scan when it opens and
/// re-synced by ``trim()`` and ``removeExpired()``.
///
/// Thread contract: every method may be called from any thread at once. The synchronous
/// methods do their I/O on the caller's thread; the `async` and callback ones never do.
///
/// ```swift
/// let cache = DiskCache(.init(directory: cachesURL, namespace: "images"))
/// try cache.store(bytes, metadata: .init(contentType: "image/png", etag: "\"v1\""), forKey: "https://example.com/a.png")
/// let hit = await cache.response(forKey: "https://example.com/a.png")
/// ```
public final class DiskCache: DataCaching, Sendable {
    /// The layout and limits this cache was opened with.
    public let configuration: Configuration
    /// Where the asynchronous methods run their I/O, and where callbacks run by default.
    public let queue: DispatchQueue
    let layout: DiskLayout
    private let names: DiskEntryNames
    private let state = Mutex(State())
    private let temporaryCounter = Atomic<UInt64>(0)

    /// Reads refresh a file's access date only when it is older than this, so a hot
    /// entry does not cost an inode write on every hit. The in-memory order is exact.
    static let accessDateGranularity: Double = 60
    /// Eviction stops at this share of the maximum size, so that not every store evicts.
    static let lowWaterMark = 0.9

    private struct State {
        var index = DiskIndex()
        var isLoaded = false
    }

    /// Opens (without creating yet) the namespace directory under `configuration.directory`.
    /// The directory is scanned on the cache's queue to learn the entries already there
    /// and to remove temporary files that dead writers left; nothing here can fail: a
    /// directory that cannot be created shows as an error from the first ``store(_:metadata:forKey:)``.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        queue = configuration.queue ?? DispatchQueue(label: "WebImageCache.DiskCache", qos: .utility)
        layout = DiskLayout(configuration)
        names = DiskEntryNames(layout)
        queue.async { [self] in withIndex { _ in } }
    }

    /// A cache in `directory/namespace` with the default limits.
    public convenience init(directory: URL, namespace: String = "default") {
        self.init(Configuration(directory: directory, namespace: namespace))
    }

    var now: Date { configuration.clock?() ?? Date() }

    /// The directory the entries live in.
    public var directoryURL: URL { URL(fileURLWithPath: layout.root, isDirectory: true) }

    /// Runs `body` on the index, scanning the directory first if this process has not yet.
    private func withIndex<R>(_ body: (inout DiskIndex) -> R) -> R {
        state.withLock { state in
            if !state.isLoaded {
                state.index = DiskIndex(layout.scan(now: now.timeIntervalSince1970))
                state.isLoaded = true
            }
            return body(&state.index)
        }
    }

    // MARK: Reading

    /// The entry for `key`, or `nil` when it is absent, expired, damaged or another
    /// key's (the last three are removed). I/O on the caller's thread.
    public func response(forKey key: CacheKey) -> CachedResponse? {
        let location = names.location(for: key)
        let name = location.name, path = location.path
        let fd = DiskFileIO.openForReading(path)
        guard fd >= 0 else {
            if errno == ENOENT { state.withLock { _ = $0.index.remove(name) } }
            return nil
        }
        defer { close(fd) }
        guard let status = DiskFileIO.status(fd: fd), status.isRegular else { return nil }
        let date = now
        let seconds = date.timeIntervalSince1970
        if let maximumAge = configuration.maximumAge {
            let reference = configuration.expiryDate == .accessDate ? status.accessDate : status.modificationDate
            if seconds - reference > maximumAge {
                discard(name, path: path, status: status)
                return nil
            }
        }
        guard let response = Self.readEntry(fd, status: status, key: key) else {
            discard(name, path: path, status: status)
            return nil
        }
        if seconds - status.accessDate > Self.accessDateGranularity || status.accessDate > seconds {
            DiskFileIO.setAccessDate(fd, date)
        }
        state.withLock { state in
            if !state.index.touch(name, at: seconds), state.isLoaded {
                // Written by another process since the scan: this process learns of it now.
                state.index.insert(name, .init(size: status.size, accessDate: seconds, modificationDate: status.modificationDate))
            }
        }
        return response
    }

    /// Reads and validates a whole entry: one `preadv` into the header and a buffer whose
    /// start is the data, which then becomes the `Data` without a copy.
    static func readEntry(_ fd: Int32, status: DiskFileIO.Status, key: CacheKey) -> CachedResponse? {
        let fileSize = status.size
        guard fileSize >= DiskEntryFormat.headerSize else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: DiskEntryFormat.headerSize, alignment: 8) { headerBuffer in
            let bodySize = fileSize - DiskEntryFormat.headerSize
            // A huge file is checked by its header before anything that size is allocated.
            if bodySize > 16 << 20 {
                guard DiskFileIO.readFully(fd, headerBuffer),
                      DiskEntryFormat.parseHeader(UnsafeRawBufferPointer(headerBuffer), fileSize: fileSize) != nil
                else { return nil }
            }
            guard let body = malloc(max(bodySize, 1)) else { return nil }
            let bodyBuffer = UnsafeMutableRawBufferPointer(start: body, count: bodySize)
            guard DiskFileIO.readFully(fd, headerBuffer, bodyBuffer),
                  let header = DiskEntryFormat.parseHeader(UnsafeRawBufferPointer(headerBuffer), fileSize: fileSize)
            else {
                free(body)
                return nil
            }
            let trailer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bodyBuffer)[header.dataLength...])
            let metadataBytes = UnsafeRawBufferPointer(rebasing: trailer[..<header.metadataLength])
            let keyBytes = UnsafeRawBufferPointer(rebasing: trailer[header.metadataLength...])
            guard DiskEntryFormat.keyMatches(keyBytes, key), let metadata = DiskEntryFormat.parseMetadata(metadataBytes) else {
                free(body)
                return nil
            }
            let data = Data(bytesNoCopy: body, count: header.dataLength, deallocator: .free)
            return CachedResponse(data: data, metadata: metadata)
        }
    }

    private func discard(_ name: String, path: String, status: DiskFileIO.Status) {
        state.withLock { state in
            DiskFileIO.removeIfSame(path, as: status)
            state.index.remove(name)
        }
    }

    // MARK: Writing

    /// Stores `data` and `metadata` for `key`, replacing any entry, atomically; then
    /// evicts down to 90 % of the maximum size if the total went past it. I/O on the
    /// caller's thread.
    ///
    /// - Throws: ``CacheError`` with `.entryTooLarge` when the entry alone exceeds the
    ///   maximum size, `.diskFull` (ENOSPC, EDQUOT, or EFBIG from a file-size limit),
    ///   `.unwritableDirectory` (permissions, read-only, a path that is not a directory)
    ///   or `.writeFailed` (any other errno). The temporary file is removed and the
    ///   entries already stored stay readable.
    public func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
        let (trailer, metadataLength) = DiskEntryFormat.trailer(metadata, key: key)
        let header = DiskEntryFormat.header(metadataLength: metadataLength, keyLength: trailer.count - metadataLength, dataLength: data.count)
        let fileSize = header.count + data.count + trailer.count
        guard fileSize <= configuration.maximumSize else {
            throw CacheError(.entryTooLarge, "an entry of \(fileSize) bytes exceeds the cache's maximum size of \(configuration.maximumSize)")
        }
        let location = names.location(for: key)
        let name = location.name, path = location.path
        let date = now
        let explicitDates = configuration.clock == nil ? nil : date
        let temporary = layout.temporaryPath(counter: temporaryCounter.add(1, ordering: .relaxed).newValue)
        do {
            try DiskFileIO.writeNewFile(temporary, header: header, data: data, trailer: trailer, dates: explicitDates)
        } catch where error.errno == ENOENT {
            // The namespace directory does not exist yet (or was removed): make it, retry.
            try DiskFileIO.makeDirectory(layout.root)
            try DiskFileIO.writeNewFile(temporary, header: header, data: data, trailer: trailer, dates: explicitDates)
        }
        if rename(temporary, path) != 0 {
            var code = errno
            if code == ENOENT, layout.usesFanOut {
                do throws(CacheError) {
                    try DiskFileIO.makeDirectory(layout.folder(forName: name))
                } catch {
                    unlink(temporary)
                    throw error
                }
                code = rename(temporary, path) == 0 ? 0 : errno
            }
            if code != 0 {
                unlink(temporary)
                throw DiskFileIO.writeError(code, "rename to \(path)")
            }
        }
        let seconds = date.timeIntervalSince1970
        let limit = configuration.maximumSize
        let kind = configuration.expiryDate
        withIndex { index in
            index.insert(name, .init(size: fileSize, accessDate: seconds, modificationDate: seconds))
            guard index.totalSize > limit else { return }
            // Unlinked under the lock so that a concurrent store of a victim's key in
            // this process cannot be undone by this eviction.
            for victim in index.evictionVictims(downTo: Int(Double(limit) * Self.lowWaterMark), by: kind) {
                unlink(layout.path(forName: victim))
                index.remove(victim)
            }
        }
    }

    // MARK: Removing and limits

    /// Removes the entry for `key`, if any. I/O on the caller's thread.
    public func removeResponse(forKey key: CacheKey) {
        let location = names.location(for: key)
        state.withLock { state in
            unlink(location.path)
            state.index.remove(location.name)
        }
    }

    /// Removes every entry (temporary files of writers still running are left to them).
    /// I/O on the caller's thread.
    public func removeAll() {
        state.withLock { state in
            for (name, _) in DiskIndex(layout.scan(now: now.timeIntervalSince1970)).records {
                unlink(layout.path(forName: name))
            }
            state.index.removeAll()
            state.isLoaded = true
        }
    }

    /// Rescans the directory (learning other processes' writes and forgetting their
    /// removals), removes stray temporary files and entries past the maximum age, then
    /// evicts down to 90 % of the maximum size if the total is past it. I/O on the
    /// caller's thread.
    public func trim() {
        let seconds = now.timeIntervalSince1970
        let kind = configuration.expiryDate
        state.withLock { state in
            var index = DiskIndex(layout.scan(now: seconds))
            if let maximumAge = configuration.maximumAge {
                for name in index.expired(before: seconds - maximumAge, by: kind) {
                    unlink(layout.path(forName: name))
                    index.remove(name)
                }
            }
            if index.totalSize > configuration.maximumSize {
                for victim in index.evictionVictims(downTo: Int(Double(configuration.maximumSize) * Self.lowWaterMark), by: kind) {
                    unlink(layout.path(forName: victim))
                    index.remove(victim)
                }
            }
            state.index = index
            state.isLoaded = true
        }
    }

    /// Removes the entries past the maximum age (after a rescan, as ``trim()`` does, which
    /// also enforces the size limit). I/O on the caller's thread.
    public func removeExpired() {
        trim()
    }

    /// Bytes taken by the entry files, as this process knows them.
    public var totalSize: Int { withIndex { $0.totalSize } }

    /// Number of entries, as this process knows them.
    public var count: Int { withIndex { $0.count } }
}
