/// A cgroup memory limit, as cgroup v2's `memory.max` file states it (a number of bytes,
/// or `max` for none), or cgroup v1's `memory.limit_in_bytes`.
///
/// Past this limit the kernel's out-of-memory killer ends a process of the group, so a
/// server sizes its caches and its memory budget below it.
///
/// ```swift
/// MemoryMax(memoryMax: "536870912")?.bytes  // 536870912 (512 MiB)
/// MemoryMax(memoryMax: "max")?.bytes        // nil: no limit
/// MemoryMax(memoryMax: "half")              // nil: not a memory.max text
/// ```
public struct MemoryMax: Sendable, Hashable {
    /// The limit in bytes; nil when there is none (`max`).
    public var bytes: Int?

    /// Creates a limit of `bytes` (nil: none).
    public init(bytes: Int?) {
        self.bytes = bytes
    }

    /// Parses the text of a `memory.max` file: `max` or a whole number of bytes, with a
    /// trailing newline or not. Returns nil for anything else, including a negative number.
    public init?(memoryMax text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 1 else { return nil }
        if fields[0] == "max" {
            self.init(bytes: nil)
        } else if let bytes = Int(fields[0]), bytes >= 0 {
            self.init(bytes: bytes)
        } else {
            return nil
        }
    }

    /// Parses cgroup v1's `memory.limit_in_bytes`: a number of bytes, where "no limit" is
    /// the largest page-aligned 64-bit value (9223372036854771712); any value of 2^62 or
    /// more is read as no limit. Returns nil for anything else.
    public init?(limitInBytes text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 1, let bytes = Int(fields[0]), bytes >= 0 else { return nil }
        self.init(bytes: bytes >= 1 << 62 ? nil : bytes)
    }
}
