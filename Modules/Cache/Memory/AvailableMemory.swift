import Foundation

/// The memory this process may use: the physical memory, or the container's cgroup v2
/// limit when that is smaller (servers run in containers more often than not).
enum AvailableMemory {
    static let bytes: Int = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard let limit = cgroupLimit(), limit > 0 else { return physical }
        return min(physical, limit)
    }()

    /// `memory.max` of the cgroup v2 hierarchy as seen from inside the container:
    /// a number of bytes, or "max" for none.
    private static func cgroupLimit() -> Int? {
        guard let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
