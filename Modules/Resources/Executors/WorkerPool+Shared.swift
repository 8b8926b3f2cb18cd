extension WorkerPool {
    /// The process's pool for the library's CPU and disk work (decoding, transforming,
    /// reading the disk cache), as wide as the cores the process may use
    /// (``ProcessResources/usableCores``: the cgroup CPU quota and the affinity mask).
    /// Made on first use, with its threads, and never shut down. Every manager uses it
    /// unless configured with another executor.
    public static let shared = WorkerPool(name: "webimage-work")
}
