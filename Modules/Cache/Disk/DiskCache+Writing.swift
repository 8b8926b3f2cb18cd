import Foundation
import Synchronization
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Writing: a temporary file renamed over the entry, then eviction if past the limit.
extension DiskCache {
    /// ``store(_:metadata:forKey:)``'s work, on the calling thread.
    func writeEntry(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey) throws(CacheError) {
        let (trailer, metadataLength) = DiskEntryFormat.trailer(metadata, key: key)
        let header = DiskEntryFormat.header(
            metadataLength: metadataLength, keyLength: trailer.count - metadataLength, dataLength: data.count)
        let fileSize = header.count + data.count + trailer.count
        guard fileSize <= configuration.maximumSize else {
            throw CacheError(
                .entryTooLarge, "an entry of \(fileSize) bytes exceeds the cache's maximum size of \(configuration.maximumSize)")
        }
        let location = names.location(for: key)
        let name = location.name
        let path = location.path
        let date = now
        let explicitDates = configuration.clock == nil ? nil : date
        let temporary = layout.temporaryPath(counter: temporaryCounter.add(1, ordering: .relaxed).newValue)
        do {
            try DiskFileIO.writeNewFile(temporary, header: header, data: data, trailer: trailer, dates: explicitDates)
        } catch  where error.errno == ENOENT {
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
}
