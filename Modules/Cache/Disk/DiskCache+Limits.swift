import Foundation
import Synchronization
import WebImageConcurrency
import WebImageCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Removal, the limits re-checked against the directory, and this process's totals.
extension DiskCache {
    /// ``removeResponse(forKey:)``'s work, on the calling thread.
    func removeEntry(forKey key: CacheKey) {
        let location = names.location(for: key)
        state.withLock { state in
            unlink(location.path)
            state.index.remove(location.name)
        }
    }

    /// ``removeAll()``'s work, on the calling thread.
    func removeAllEntries() {
        state.withLock { state in
            for (name, _) in DiskIndex(layout.scan(now: now.timeIntervalSince1970)).records {
                unlink(layout.path(forName: name))
            }
            state.index.removeAll()
            state.isLoaded = true
        }
        // The index of variants per source lists nothing any more.
        try? FileManager.default.removeItem(at: variantIndexURL)
    }

    /// ``trim()``'s work, on the calling thread.
    func trimEntries() {
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
        // The index of variants per source forgets the evicted variants, and the sources
        // with none left.
        variantIndex.compactAll(now: seconds)
    }

    /// Bytes taken by the entry files, as this process knows them.
    public var totalSize: Int { withIndex { $0.totalSize } }

    /// Number of entries, as this process knows them.
    public var count: Int { withIndex { $0.count } }
}
