import Testing

@testable import WebImageConcurrency
@testable import WebImageResources

@Suite("cpu.max and memory.max text")
struct CgroupTextTests {
    @Test("a quota and a period are cores; max is no quota")
    func cpuMax() {
        #expect(CPUQuota(cpuMax: "150000 100000")?.cores == 1.5)
        #expect(CPUQuota(cpuMax: "150000 100000\n") == CPUQuota(quotaMicroseconds: 150_000, periodMicroseconds: 100_000))
        #expect(CPUQuota(cpuMax: "50000 100000")?.cores == 0.5)
        let unlimited = CPUQuota(cpuMax: "max 100000\n")
        #expect(unlimited == CPUQuota(quotaMicroseconds: nil, periodMicroseconds: 100_000))
        #expect(unlimited?.cores == nil)
    }

    @Test(
        "malformed cpu.max is nil",
        arguments: ["", "\n", "max", "150000", "1.5 100000", "150000 0", "0 100000", "-1 100000", "max max", "a b", "1 2 3"])
    func malformedCPUMax(text: String) {
        #expect(CPUQuota(cpuMax: text) == nil)
    }

    @Test("memory.max is bytes, or max for none")
    func memoryMax() {
        #expect(MemoryMax(memoryMax: "536870912\n")?.bytes == 536_870_912)
        #expect(MemoryMax(memoryMax: "0") == MemoryMax(bytes: 0))
        #expect(MemoryMax(memoryMax: "max\n") == MemoryMax(bytes: nil))
    }

    @Test("malformed memory.max is nil", arguments: ["", "maximum", "-5", "12 34", "1.5G", "512M"])
    func malformedMemoryMax(text: String) {
        #expect(MemoryMax(memoryMax: text) == nil)
    }
}
