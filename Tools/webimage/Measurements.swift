import Foundation

/// How the subcommands show durations and byte counts.
enum Measurements {
    /// A duration in milliseconds, to the nanosecond.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Milliseconds rounded to the microsecond: what JSON output carries.
    static func roundedMilliseconds(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }

    /// "12.34 ms" for a table.
    static func text(milliseconds: Double) -> String {
        String(format: "%.2f ms", milliseconds)
    }

    /// "1234567 (1.2 MiB)": the exact count for scripts, the short form for people.
    static func text(bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) bytes" : "\(bytes) bytes (\(short(bytes: bytes)))"
    }

    /// "1.2 MiB", binary units as the disk cache's limits are given.
    static func short(bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }
}
