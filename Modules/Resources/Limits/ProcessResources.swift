import Foundation
import WebImageConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many cores and how many bytes this process may use: the machine's, narrowed by
/// the container or service limits it runs under.
///
/// A server sizes its worker threads and its memory budget from these, not from the
/// machine: a container given `--cpus=2` on a 64-core host that starts 64 busy threads is
/// throttled by the kernel, and one given `--memory=512m` that fills the host's RAM is
/// killed.
///
/// ```swift
/// let resources = ProcessResources.current
/// let pool = WorkerPool(width: resources.usableCores)
/// let budget = MemoryBudget(capacity: resources.memoryLimit / 4)
/// ```
///
/// The values are read once, when the value is made; limits changed later are not seen.
public struct ProcessResources: Sendable, Hashable {
    /// The cgroup CPU quota (v2, or v1) in cores (`1.5`), or nil when there is none.
    public var cpuQuota: Double?

    /// How many CPUs the process may be scheduled on: its affinity mask (`taskset`,
    /// `--cpuset-cpus`), as `ProcessInfo.activeProcessorCount` reports it.
    public var schedulableCores: Int

    /// The cgroup memory limit (v2, or v1) in bytes, or nil when there is none.
    public var cgroupMemoryLimit: Int?

    /// The machine's physical memory in bytes.
    public var physicalMemory: Int

    /// Creates the resources from values already known (for tests and for settings that
    /// override what the system says).
    public init(cpuQuota: Double?, schedulableCores: Int, cgroupMemoryLimit: Int?, physicalMemory: Int) {
        self.cpuQuota = cpuQuota
        self.schedulableCores = schedulableCores
        self.cgroupMemoryLimit = cgroupMemoryLimit
        self.physicalMemory = physicalMemory
    }

    /// Reads the limits from `cgroups`, with the affinity mask and the physical memory of
    /// this machine unless given.
    public init(
        reading cgroups: CgroupFiles,
        schedulableCores: Int = ProcessInfo.processInfo.activeProcessorCount,
        physicalMemory: Int = ProcessResources.machinePhysicalMemory()
    ) {
        self.init(
            cpuQuota: cgroups.cpuQuotaCores(),
            schedulableCores: schedulableCores,
            cgroupMemoryLimit: cgroups.memoryLimit(),
            physicalMemory: physicalMemory
        )
    }

    /// This process's resources, read from the system now (a few small file reads).
    public static var current: ProcessResources { ProcessResources(reading: CgroupFiles()) }

    /// How many threads can be busy at once without being throttled: the CPU quota
    /// rounded up (a quota of 1.5 cores keeps 2 threads busy part of the time), or the
    /// schedulable CPUs when fewer; never less than 1.
    public var usableCores: Int {
        var cores = schedulableCores
        if let cpuQuota, cpuQuota.isFinite {
            // A quota beyond any real core count is as good as none; clamp before
            // converting so the conversion cannot trap.
            cores = min(cores, Int(min(cpuQuota.rounded(.up), Double(Int32.max))))
        }
        return max(cores, 1)
    }

    /// How many bytes the process can hold before it is killed or the machine runs out:
    /// the cgroup memory limit or the physical memory, whichever is smaller.
    public var memoryLimit: Int {
        guard let cgroupMemoryLimit else { return physicalMemory }
        return min(cgroupMemoryLimit, physicalMemory)
    }

    /// The machine's physical memory in bytes (`sysconf` pages times page size).
    public static func machinePhysicalMemory() -> Int {
        #if canImport(Glibc)
            let pages = sysconf(Int32(_SC_PHYS_PAGES))
            let pageSize = sysconf(Int32(_SC_PAGESIZE))
            if pages > 0, pageSize > 0 {
                let (bytes, overflow) = pages.multipliedReportingOverflow(by: pageSize)
                return overflow ? Int.max : bytes
            }
        #endif
        return Int(clamping: ProcessInfo.processInfo.physicalMemory)
    }
}
