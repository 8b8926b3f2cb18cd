import Foundation

/// The process's resident memory as the kernel counts it, from /proc/self/status:
/// `VmHWM` (the peak since start) and `VmRSS` (now). Linux only; `nil` elsewhere.
enum ProcessMemory {
    static var peakMiB: Double? { field("VmHWM") }
    static var currentMiB: Double? { field("VmRSS") }

    /// A `kB` line of /proc/self/status in MiB.
    private static func field(_ name: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first
            return number.flatMap { Double($0) }.map { $0 / 1024 }
        }
        return nil
    }
}
