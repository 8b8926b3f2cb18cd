import Synchronization
import WebImageConcurrency
import WebImageCore

/// Built transforms by source and target, at most `capacity` of them, the least
/// recently used dropped first. A CMYK transform takes milliseconds to build; a photo
/// site converts the same few profiles again and again.
///
/// Thread contract: `Sendable`; a lock guards the table, never held while a transform
/// is built (two threads may build the same one at once; one of them is kept).
final class TransformCache<Transform: Sendable>: Sendable {
    struct Key: Hashable, Sendable {
        var source: ColorSource
        var target: ColorProfile?
    }

    private struct Table {
        var entries: [Key: (transform: Transform, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let table: Locked<Table>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        table = Locked(Table())
    }

    /// The cached transform for `key`, or the one `build` makes, kept for next time.
    func transform(
        for key: Key, build: () throws(ColorProfileError) -> Transform
    ) throws(ColorProfileError) -> Transform {
        let cached = table.withLock { table -> Transform? in
            table.clock += 1
            guard let entry = table.entries[key] else { return nil }
            table.entries[key]?.lastUse = table.clock
            return entry.transform
        }
        if let cached { return cached }
        let built = try build()
        table.withLock { table in
            table.clock += 1
            if table.entries[key] == nil, table.entries.count >= capacity,
                let oldest = table.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                table.entries[oldest] = nil
            }
            table.entries[key] = (built, table.clock)
        }
        return built
    }

    /// How many transforms are kept.
    var count: Int { table.withLock { $0.entries.count } }
}
