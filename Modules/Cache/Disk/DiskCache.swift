import Dispatch
import Foundation
import Synchronization
import WebImageConcurrency
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
/// re-synced by ``trim()-74n4i`` and ``removeExpired()-9j8rl``.
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
    let names: DiskEntryNames
    let state = Locked(State())
    let temporaryCounter = Atomic<UInt64>(0)

    /// Reads refresh a file's access date only when it is older than this, so a hot
    /// entry does not cost an inode write on every hit. The in-memory order is exact.
    static let accessDateGranularity: Double = 60
    /// Eviction stops at this share of the maximum size, so that not every store evicts.
    static let lowWaterMark = 0.9

    struct State {
        var index = DiskIndex()
        var isLoaded = false
    }

    /// Opens (without creating yet) the namespace directory under `configuration.directory`.
    /// The directory is scanned on the cache's queue to learn the entries already there
    /// and to remove temporary files that dead writers left; nothing here can fail: a
    /// directory that cannot be created shows as an error from the first ``store(_:metadata:forKey:)-7hwlk``.
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
    func withIndex<R>(_ body: (inout DiskIndex) -> R) -> R {
        state.withLock { state in
            if !state.isLoaded {
                state.index = DiskIndex(layout.scan(now: now.timeIntervalSince1970))
                state.isLoaded = true
            }
            return body(&state.index)
        }
    }

    // MARK: The synchronous API (the work lives in the +Reading, +Writing, +Limits files)

    /// The entry for `key`, or `nil` when it is absent, expired, damaged or another
    /// key's (the last three are removed). I/O on the caller's thread.
    public func response(forKey key: CacheKey) -> CachedResponse? {
        readResponse(forKey: key)
    }

    /// Stores `data` and `metadata` for `key`, replacing any entry, atomically; then
    /// evicts down to 90 % of the maximum size if the total went past it. I/O on the
    /// caller's thread.
    ///
    /// - Throws: `CacheError` with `.entryTooLarge` when the entry alone exceeds the
    ///   maximum size, `.diskFull` (ENOSPC, EDQUOT, or EFBIG from a file-size limit),
    ///   `.unwritableDirectory` (permissions, read-only, a path that is not a directory)
    ///   or `.writeFailed` (any other errno). The temporary file is removed and the
    ///   entries already stored stay readable.
    public func store(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
        try writeEntry(data, metadata: metadata, forKey: key)
    }

    /// Removes the entry for `key`, if any. I/O on the caller's thread.
    public func removeResponse(forKey key: CacheKey) {
        removeEntry(forKey: key)
    }

    /// Removes every entry (temporary files of writers still running are left to them).
    /// I/O on the caller's thread.
    public func removeAll() {
        removeAllEntries()
    }

    /// Rescans the directory (learning other processes' writes and forgetting their
    /// removals), removes stray temporary files and entries past the maximum age, then
    /// evicts down to 90 % of the maximum size if the total is past it. I/O on the
    /// caller's thread.
    public func trim() {
        trimEntries()
    }

    /// Removes the entries past the maximum age (after a rescan, as ``trim()-74n4i`` does, which
    /// also enforces the size limit). I/O on the caller's thread.
    public func removeExpired() {
        trimEntries()
    }
}
