/// How soon a queued download runs: higher first; equal priorities in the queue's order.
///
/// A waiting download's priority can rise while it waits (a new subscriber asking with a
/// higher priority raises the shared download); it never falls.
public enum DownloadPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case veryLow = 0
    case low = 1
    case normal = 2
    case high = 3
    case veryHigh = 4

    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .veryLow: "veryLow"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "veryHigh"
        }
    }
}

extension DownloadPriority {
    /// The task priority a load of this priority runs at: `.high` for the high ones,
    /// `.low` for the low ones, `.medium` otherwise.
    public var taskPriority: TaskPriority {
        switch self {
        case .veryHigh, .high: .high
        case .normal: .medium
        case .low, .veryLow: .low
        }
    }

    /// The queue priority of work done for a task of `taskPriority` (the reverse of
    /// ``taskPriority``): `.high` from `.high` up, `.low` from `.low` down, `.normal` between.
    public init(taskPriority: TaskPriority) {
        if taskPriority >= .high {
            self = .high
        } else if taskPriority <= .low {
            self = .low
        } else {
            self = .normal
        }
    }
}

/// The order in which a download queue starts downloads of equal priority.
public enum ExecutionOrder: Sendable, Hashable {
    /// First in, first out: the oldest waiting download starts first (the default).
    case fifo
    /// Last in, first out: the newest starts first, as for a scrolling list where the
    /// latest requests are the ones on screen.
    case lifo
}
