/// A cgroup CPU limit, as cgroup v2's `cpu.max` file (or cgroup v1's `cpu.cfs_quota_us`
/// and `cpu.cfs_period_us`) states it: how much CPU time the group may use in each period.
///
/// A container runtime turns `--cpus=1.5` into `150000 100000` (150 ms of CPU time in
/// every 100 ms period, so one and a half cores busy on average); no limit reads
/// `max 100000`.
///
/// ```swift
/// CPUQuota(cpuMax: "150000 100000")?.cores  // 1.5
/// CPUQuota(cpuMax: "max 100000")?.cores     // nil: no quota
/// CPUQuota(cpuMax: "lots")                  // nil: not a cpu.max text
/// ```
public struct CPUQuota: Sendable, Hashable {
    /// CPU time the group may use per period, in microseconds; nil when unlimited (`max`).
    public var quotaMicroseconds: Int?

    /// The length of the period, in microseconds.
    public var periodMicroseconds: Int

    /// Creates a limit of `quotaMicroseconds` per `periodMicroseconds` (nil: unlimited).
    public init(quotaMicroseconds: Int?, periodMicroseconds: Int) {
        self.quotaMicroseconds = quotaMicroseconds
        self.periodMicroseconds = periodMicroseconds
    }

    /// Parses the text of a `cpu.max` file: a quota (or `max`) and a period, separated by
    /// a space, with a trailing newline or not. Returns nil for anything else, including a
    /// zero or negative number, so a file the kernel never wrote is not mistaken for a
    /// limit.
    public init?(cpuMax text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let period = Int(fields[1]), period > 0 else { return nil }
        if fields[0] == "max" {
            self.init(quotaMicroseconds: nil, periodMicroseconds: period)
        } else if let quota = Int(fields[0]), quota > 0 {
            self.init(quotaMicroseconds: quota, periodMicroseconds: period)
        } else {
            return nil
        }
    }

    /// Parses cgroup v1's pair of files: `cpu.cfs_quota_us` (`-1` when unlimited) and
    /// `cpu.cfs_period_us`. Returns nil when either is not a number the kernel writes.
    public init?(cfsQuota quotaText: String, cfsPeriod periodText: String) {
        let quotaFields = quotaText.split(whereSeparator: \.isWhitespace)
        let periodFields = periodText.split(whereSeparator: \.isWhitespace)
        guard quotaFields.count == 1, periodFields.count == 1, let quota = Int(quotaFields[0]),
            let period = Int(periodFields[0]), period > 0
        else { return nil }
        if quota == -1 {
            self.init(quotaMicroseconds: nil, periodMicroseconds: period)
        } else if quota > 0 {
            self.init(quotaMicroseconds: quota, periodMicroseconds: period)
        } else {
            return nil
        }
    }

    /// The average number of cores the quota allows (`1.5` for 150 ms per 100 ms), or nil
    /// when there is no quota.
    public var cores: Double? {
        quotaMicroseconds.map { Double($0) / Double(periodMicroseconds) }
    }
}
