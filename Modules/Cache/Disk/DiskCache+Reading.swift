import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Reading: one open, one fstat, one preadv, and checks that cost no copy.
extension DiskCache {
    /// ``response(forKey:)``'s work, on the calling thread.
    func readResponse(forKey key: CacheKey) -> CachedResponse? {
        let date = now
        let seconds = date.timeIntervalSince1970
        return readLiveEntry(forKey: key, at: seconds, Self.readEntry) { fd, status, name in
            if seconds - status.accessDate > Self.accessDateGranularity || status.accessDate > seconds {
                DiskFileIO.setAccessDate(fd, date)
            }
            state.withLock { state in
                if !state.index.touch(name, at: seconds), state.isLoaded {
                    // Written by another process since the scan: this process learns of it now.
                    state.index.insert(name, .init(size: status.size, accessDate: seconds, modificationDate: status.modificationDate))
                }
            }
        }
    }

    /// Opens `key`'s entry and hands it to `read` unless it is past the maximum age at
    /// `seconds`; `used` then sees the open entry when `read` gave a value. An expired
    /// entry, or one `read` finds damaged or another key's (`nil`), is discarded; a missing
    /// file leaves the index. The one path of every read, whole or metadata alone.
    func readLiveEntry<Value>(
        forKey key: CacheKey, at seconds: TimeInterval, _ read: (Int32, DiskFileIO.Status, CacheKey) -> Value?,
        used: (Int32, DiskFileIO.Status, String) -> Void = { _, _, _ in }
    ) -> Value? {
        let location = names.location(for: key)
        let fd = DiskFileIO.openForReading(location.path)
        guard fd >= 0 else {
            if errno == ENOENT { state.withLock { _ = $0.index.remove(location.name) } }
            return nil
        }
        defer { close(fd) }
        guard let status = DiskFileIO.status(fd: fd), status.isRegular else { return nil }
        if let maximumAge = configuration.maximumAge {
            let reference = configuration.expiryDate == .accessDate ? status.accessDate : status.modificationDate
            if seconds - reference > maximumAge {
                discard(location.name, path: location.path, status: status)
                return nil
            }
        }
        guard let value = read(fd, status, key) else {
            discard(location.name, path: location.path, status: status)
            return nil
        }
        used(fd, status, location.name)
        return value
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
            guard DiskEntryFormat.keyMatches(keyBytes, key),
                let metadata = DiskEntryFormat.parseMetadata(metadataBytes, version: header.version)
            else {
                free(body)
                return nil
            }
            let data = Data(bytesNoCopy: body, count: header.dataLength, deallocator: .free)
            return CachedResponse(data: data, metadata: metadata)
        }
    }

    /// Removes an entry found expired or damaged, unless another writer replaced it since.
    func discard(_ name: String, path: String, status: DiskFileIO.Status) {
        state.withLock { state in
            DiskFileIO.removeIfSame(path, as: status)
            state.index.remove(name)
        }
    }
}
