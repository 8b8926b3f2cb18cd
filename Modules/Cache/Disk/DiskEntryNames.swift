import Synchronization
import WebImageConcurrency
import WebImageCore

/// Remembers the file name and path of recently used keys, because hashing a key with
/// SHA-256 and formatting 64 hex digits costs about as much as reading a 50 KB entry
/// from the page cache. Bounded: past `limit` keys it starts over.
final class DiskEntryNames: Sendable {
    struct Location: Sendable {
        var name: String
        var path: String
    }

    private let layout: DiskLayout
    private let limit: Int
    private let memo = Locked<[CacheKey: Location]>([:])

    init(_ layout: DiskLayout, limit: Int = 4_096) {
        self.layout = layout
        self.limit = limit
    }

    func location(for key: CacheKey) -> Location {
        if let known = memo.withLock({ $0[key] }) { return known }
        let name = layout.fileName(for: key)
        let location = Location(name: name, path: layout.path(forName: name))
        memo.withLock { memo in
            if memo.count >= limit { memo.removeAll(keepingCapacity: true) }
            memo[key] = location
        }
        return location
    }
}
