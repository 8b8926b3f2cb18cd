/// This process's view of the entries on disk: size and dates per file name, and the
/// total. Plain values, no I/O: the cache keeps it behind its lock and acts on what it
/// returns. Another process's writes are not seen until a rescan (``DiskCache/trim()``)
/// or until this process reads them.
struct DiskIndex {
    struct Record: Equatable {
        var size: Int
        /// Seconds since 1970.
        var accessDate: Double
        var modificationDate: Double

        func date(_ kind: DiskCache.ExpiryDate) -> Double {
            kind == .accessDate ? accessDate : modificationDate
        }
    }

    private(set) var records: [String: Record] = [:]
    private(set) var totalSize = 0

    var count: Int { records.count }

    init() {}

    init(_ records: [String: Record]) {
        self.records = records
        totalSize = records.values.reduce(0) { $0 + $1.size }
    }

    mutating func insert(_ name: String, _ record: Record) {
        if let old = records.updateValue(record, forKey: name) { totalSize -= old.size }
        totalSize += record.size
    }

    @discardableResult
    mutating func remove(_ name: String) -> Record? {
        guard let old = records.removeValue(forKey: name) else { return nil }
        totalSize -= old.size
        return old
    }

    mutating func removeAll() {
        records.removeAll()
        totalSize = 0
    }

    /// Marks `name` as read at `date`; false when the index does not know it.
    mutating func touch(_ name: String, at date: Double) -> Bool {
        guard records[name] != nil else { return false }
        records[name]!.accessDate = date
        return true
    }

    /// The names to remove, oldest by `kind` first, so that the total falls to at most
    /// `target`. Empty when it already is. Ties break by name, so the order is stable.
    func evictionVictims(downTo target: Int, by kind: DiskCache.ExpiryDate) -> [String] {
        guard totalSize > target else { return [] }
        let ordered = records.sorted { a, b in
            let left = a.value.date(kind)
            let right = b.value.date(kind)
            return left != right ? left < right : a.key < b.key
        }
        var remaining = totalSize
        var victims: [String] = []
        for (name, record) in ordered where remaining > target {
            victims.append(name)
            remaining -= record.size
        }
        return victims
    }

    /// The names whose `kind` date is before `cutoff`.
    func expired(before cutoff: Double, by kind: DiskCache.ExpiryDate) -> [String] {
        records.compactMap { $0.value.date(kind) < cutoff ? $0.key : nil }
    }
}
