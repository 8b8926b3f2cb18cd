/// How far a prefetch is: every URL ends up in exactly one of the counts.
public struct PrefetchProgress: Sendable, Hashable, CustomStringConvertible {
    public var total: Int
    /// Loaded from the network (downloaded, or revalidated with a 304).
    public var finished = 0
    /// Already in a cache: nothing to fetch (a stale copy allowed by
    /// `stale-while-revalidate` or `stale-if-error` included).
    public var skipped = 0
    /// Failed (the failed-URL set included).
    public var failed = 0
    /// Cancelled before they ended.
    public var cancelled = 0

    public init(total: Int) {
        self.total = total
    }

    /// URLs that have ended, one way or another.
    public var completed: Int { finished + skipped + failed + cancelled }
    public var isDone: Bool { completed == total }

    public var description: String {
        "\(completed)/\(total): \(finished) fetched, \(skipped) cached, \(failed) failed, \(cancelled) cancelled"
    }
}
