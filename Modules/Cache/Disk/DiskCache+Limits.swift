import Foundation
import Synchronization
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Removal, the limits re-checked against the directory, and this process's totals.
extension DiskCache {
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
