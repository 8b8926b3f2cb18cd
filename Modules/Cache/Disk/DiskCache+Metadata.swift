import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Reading an entry's metadata alone: the header, then the metadata and key after the
// data, never the data itself.
extension DiskCache {
    /// The metadata of the entry for `key`, without reading its bytes: two `pread`s of a
    /// few hundred bytes, whatever the entry's size. `nil` when the entry is absent,
    /// expired, damaged or another key's (the last three are removed, as on a full read).
    /// A metadata read is not a use of the entry: its access date, and so its place in
    /// the eviction order, stay as they are. I/O on the caller's thread.
    public func metadata(forKey key: CacheKey) -> CachedResponseMetadata? {
        readLiveEntry(forKey: key, at: now.timeIntervalSince1970, Self.readMetadata)
    }

    /// ``metadata(forKey:)`` on the cache's queue.
    public func metadata(forKey key: CacheKey) async -> CachedResponseMetadata? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.metadata(forKey: key) as CachedResponseMetadata?) }
        }
    }

    /// Reads and checks the header, then the metadata and key that follow the data.
    static func readMetadata(_ fd: Int32, status: DiskFileIO.Status, key: CacheKey) -> CachedResponseMetadata? {
        guard status.size >= DiskEntryFormat.headerSize else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: DiskEntryFormat.headerSize, alignment: 8) { headerBuffer in
            guard DiskFileIO.read(fd, into: headerBuffer, at: 0),
                let header = DiskEntryFormat.parseHeader(UnsafeRawBufferPointer(headerBuffer), fileSize: status.size)
            else { return nil }
            let trailerSize = header.metadataLength + header.keyLength
            return withUnsafeTemporaryAllocation(byteCount: max(trailerSize, 1), alignment: 8) { trailerBuffer in
                let trailer = UnsafeMutableRawBufferPointer(rebasing: trailerBuffer[..<trailerSize])
                guard DiskFileIO.read(fd, into: trailer, at: DiskEntryFormat.headerSize + header.dataLength) else { return nil }
                let raw = UnsafeRawBufferPointer(trailer)
                guard DiskEntryFormat.keyMatches(UnsafeRawBufferPointer(rebasing: raw[header.metadataLength...]), key) else {
                    return nil
                }
                return DiskEntryFormat.parseMetadata(
                    UnsafeRawBufferPointer(rebasing: raw[..<header.metadataLength]), version: header.version)
            }
        }
    }
}
