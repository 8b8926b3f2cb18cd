extension MemoryBudget {
    /// The process's budget for pixels being decoded and transformed: a quarter of the
    /// memory the process may use (``ProcessResources/memoryLimit``: the cgroup limit, or
    /// physical memory when there is none), at least 64 MiB. Shared by every manager
    /// unless configured with another budget, so two managers in one process do not each
    /// take a quarter.
    public static let shared = MemoryBudget(capacity: defaultCapacity(for: ProcessResources.current))

    /// A quarter of `resources.memoryLimit`, at least 64 MiB.
    public static func defaultCapacity(for resources: ProcessResources) -> Int {
        max(64 << 20, resources.memoryLimit / 4)
    }
}
