import Testing

@testable import WebImageConcurrency
@testable import WebImageResources

@Suite("ProcessResources: usable cores and memory limit")
struct ProcessResourcesTests {
    @Test("the quota rounded up, unless fewer CPUs are schedulable; at least 1")
    func usableCores() {
        func cores(quota: Double?, schedulable: Int) -> Int {
            ProcessResources(cpuQuota: quota, schedulableCores: schedulable, cgroupMemoryLimit: nil, physicalMemory: 1).usableCores
        }
        #expect(cores(quota: 1.5, schedulable: 8) == 2)
        #expect(cores(quota: 2, schedulable: 8) == 2)
        #expect(cores(quota: 0.1, schedulable: 8) == 1)
        #expect(cores(quota: 16, schedulable: 4) == 4)
        #expect(cores(quota: nil, schedulable: 4) == 4)
        #expect(cores(quota: nil, schedulable: 0) == 1)
        #expect(cores(quota: 1e30, schedulable: 4) == 4)
    }

    @Test("the smaller of the cgroup limit and the physical memory")
    func memoryLimit() {
        func limit(cgroup: Int?, physical: Int) -> Int {
            ProcessResources(cpuQuota: nil, schedulableCores: 1, cgroupMemoryLimit: cgroup, physicalMemory: physical).memoryLimit
        }
        #expect(limit(cgroup: 512, physical: 4096) == 512)
        #expect(limit(cgroup: 8192, physical: 4096) == 4096)
        #expect(limit(cgroup: nil, physical: 4096) == 4096)
    }

    @Test("on this machine: at least one core and some memory")
    func thisMachine() {
        let resources = ProcessResources.current
        #expect(resources.usableCores >= 1)
        #expect(resources.memoryLimit > 0)
        #expect(resources.physicalMemory > 0)
    }
}
