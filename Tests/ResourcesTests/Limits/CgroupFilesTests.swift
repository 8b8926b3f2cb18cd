import Foundation
import Testing

@testable import WebImageConcurrency
@testable import WebImageResources

/// A directory standing in for `/`, with `/proc/self/...` and cgroup files written into it.
private final class FakeRoot {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ text: String, to absolutePath: String) throws {
        let url = URL(fileURLWithPath: path + absolutePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    var files: CgroupFiles { CgroupFiles(root: path) }
}

@Suite("CgroupFiles: the limits of the process's cgroup, read from sample files")
struct CgroupFilesTests {
    @Test("a quota on the process's own group")
    func quotaOnOwnGroup() throws {
        let root = try FakeRoot()
        try root.write("0::/app.slice/web.service\n", to: "/proc/self/cgroup")
        try root.write("150000 100000\n", to: "/sys/fs/cgroup/app.slice/web.service/cpu.max")
        try root.write("268435456\n", to: "/sys/fs/cgroup/app.slice/web.service/memory.max")
        #expect(root.files.cpuQuotaCores() == 1.5)
        #expect(root.files.memoryLimit() == 268_435_456)
    }

    @Test("no quota: max, or no files at all")
    func noQuota() throws {
        let root = try FakeRoot()
        try root.write("0::/web\n", to: "/proc/self/cgroup")
        try root.write("max 100000\n", to: "/sys/fs/cgroup/web/cpu.max")
        try root.write("max\n", to: "/sys/fs/cgroup/web/memory.max")
        #expect(root.files.cpuQuotaCores() == nil)
        #expect(root.files.memoryLimit() == nil)

        let empty = try FakeRoot()
        #expect(empty.files.cpuQuotaCores() == nil)
        #expect(empty.files.memoryLimit() == nil)
    }

    @Test("a malformed file is skipped, not guessed at")
    func malformed() throws {
        let root = try FakeRoot()
        try root.write("0::/web\n", to: "/proc/self/cgroup")
        try root.write("lots\n", to: "/sys/fs/cgroup/web/cpu.max")
        try root.write("512M\n", to: "/sys/fs/cgroup/web/memory.max")
        #expect(root.files.cpuQuotaCores() == nil)
        #expect(root.files.memoryLimit() == nil)
    }

    @Test("nested groups: the smallest limit on the way to the root wins")
    func nested() throws {
        let root = try FakeRoot()
        try root.write("12:memory:/old\n0::/a/b/c\n", to: "/proc/self/cgroup")
        try root.write("400000 100000\n", to: "/sys/fs/cgroup/a/b/c/cpu.max")
        try root.write("200000 100000\n", to: "/sys/fs/cgroup/a/cpu.max")
        try root.write("max 100000\n", to: "/sys/fs/cgroup/a/b/cpu.max")
        try root.write("max\n", to: "/sys/fs/cgroup/a/b/c/memory.max")
        try root.write("1000000\n", to: "/sys/fs/cgroup/a/b/memory.max")
        try root.write("2000000\n", to: "/sys/fs/cgroup/a/memory.max")
        #expect(root.files.cpuQuotaCores() == 2)
        #expect(root.files.memoryLimit() == 1_000_000)
    }

    @Test("a group path that is not under the mount falls back to the mount's own files (a container's namespace root)")
    func fallsBackToMountRoot() throws {
        let root = try FakeRoot()
        try root.write("0::/docker/0123abcd\n", to: "/proc/self/cgroup")
        try root.write("100000 100000\n", to: "/sys/fs/cgroup/cpu.max")
        try root.write("4096\n", to: "/sys/fs/cgroup/memory.max")
        #expect(root.files.cpuQuotaCores() == 1)
        #expect(root.files.memoryLimit() == 4096)
    }

    @Test("the cgroup2 mount from mountinfo: a hybrid system's unified directory, a partial mount's root")
    func mountinfo() throws {
        let hybrid = try FakeRoot()
        try hybrid.write(
            """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw

            """,
            to: "/proc/self/mountinfo"
        )
        try hybrid.write("0::/user.slice\n", to: "/proc/self/cgroup")
        try hybrid.write("300000 100000\n", to: "/sys/fs/cgroup/unified/user.slice/cpu.max")
        try hybrid.write("100000 100000\n", to: "/sys/fs/cgroup/cpu.max")  // not the v2 mount: ignored
        #expect(hybrid.files.cpuQuotaCores() == 3)

        let partial = try FakeRoot()
        try partial.write("99 98 0:40 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n", to: "/proc/self/mountinfo")
        try partial.write("0::/docker/abc/worker\n", to: "/proc/self/cgroup")
        try partial.write("250000 100000\n", to: "/sys/fs/cgroup/worker/cpu.max")
        try partial.write("150000 100000\n", to: "/sys/fs/cgroup/cpu.max")
        #expect(partial.files.cpuQuotaCores() == 1.5)
        #expect(partial.files.groupDirectories() == ["/sys/fs/cgroup/worker", "/sys/fs/cgroup"])
    }

    @Test("the v2 line of /proc/self/cgroup")
    func groupPath() {
        #expect(CgroupFiles.groupPath(procSelfCgroup: "0::/\n") == "/")
        #expect(CgroupFiles.groupPath(procSelfCgroup: "4:memory:/x\n0::/a/b\n") == "/a/b")
        #expect(CgroupFiles.groupPath(procSelfCgroup: "4:memory:/x\n") == nil)
        #expect(CgroupFiles.directories(groupPath: "/", mountPoint: "/sys/fs/cgroup", mountRoot: "/") == ["/sys/fs/cgroup"])
        #expect(
            CgroupFiles.directories(groupPath: "/a/../b", mountPoint: "/sys/fs/cgroup/", mountRoot: "/") == [
                "/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup",
            ]
        )
    }
}

@Suite("CgroupFiles: cgroup v1 limits, read from sample files")
struct CgroupVersion1Tests {
    /// A v1 host's mounts: the CPU controller with cpuacct, the memory controller alone,
    /// no v2 hierarchy.
    static let mountinfo = """
        25 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
        30 25 0:26 / /sys/fs/cgroup rw,nosuid - tmpfs tmpfs ro,mode=755
        33 30 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:14 - cgroup cgroup rw,cpu,cpuacct
        36 30 0:32 / /sys/fs/cgroup/memory rw,nosuid shared:17 - cgroup cgroup rw,memory

        """

    @Test("a CFS quota and a memory limit on the process's group")
    func limitsOnOwnGroup() throws {
        let root = try FakeRoot()
        try root.write(Self.mountinfo, to: "/proc/self/mountinfo")
        try root.write("11:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n", to: "/proc/self/cgroup")
        try root.write("250000\n", to: "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us")
        try root.write("100000\n", to: "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us")
        try root.write("536870912\n", to: "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes")
        #expect(root.files.cpuQuotaCores() == 2.5)
        #expect(root.files.memoryLimit() == 536_870_912)
    }

    @Test("no limit: a quota of -1, and the kernel's largest value for memory")
    func unlimited() throws {
        let root = try FakeRoot()
        try root.write(Self.mountinfo, to: "/proc/self/mountinfo")
        try root.write("11:memory:/web\n4:cpu,cpuacct:/web\n", to: "/proc/self/cgroup")
        try root.write("-1\n", to: "/sys/fs/cgroup/cpu,cpuacct/web/cpu.cfs_quota_us")
        try root.write("100000\n", to: "/sys/fs/cgroup/cpu,cpuacct/web/cpu.cfs_period_us")
        try root.write("9223372036854771712\n", to: "/sys/fs/cgroup/memory/web/memory.limit_in_bytes")
        #expect(root.files.cpuQuotaCores() == nil)
        #expect(root.files.memoryLimit() == nil)
    }

    @Test("a container's view: the mount's root is the container's group, and a parent's limit bounds the child's")
    func containerMountAndParents() throws {
        let root = try FakeRoot()
        try root.write(
            """
            40 39 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct
            41 39 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory

            """, to: "/proc/self/mountinfo")
        try root.write("11:memory:/docker/abc/worker\n4:cpu,cpuacct:/docker/abc/worker\n", to: "/proc/self/cgroup")
        try root.write("-1\n", to: "/sys/fs/cgroup/cpu,cpuacct/worker/cpu.cfs_quota_us")
        try root.write("100000\n", to: "/sys/fs/cgroup/cpu,cpuacct/worker/cpu.cfs_period_us")
        try root.write("50000\n", to: "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us")
        try root.write("100000\n", to: "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us")
        try root.write("1000000\n", to: "/sys/fs/cgroup/memory/worker/memory.limit_in_bytes")
        try root.write("4000000\n", to: "/sys/fs/cgroup/memory/memory.limit_in_bytes")
        #expect(root.files.cpuQuotaCores() == 0.5)
        #expect(root.files.memoryLimit() == 1_000_000)
    }

    @Test("a hybrid host: the smaller of the v2 and v1 limits wins")
    func hybridTakesTheSmaller() throws {
        let root = try FakeRoot()
        try root.write(Self.mountinfo + "41 30 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n", to: "/proc/self/mountinfo")
        try root.write("4:cpu,cpuacct:/app\n11:memory:/app\n0::/app\n", to: "/proc/self/cgroup")
        try root.write("300000 100000\n", to: "/sys/fs/cgroup/unified/app/cpu.max")
        try root.write("150000\n", to: "/sys/fs/cgroup/cpu,cpuacct/app/cpu.cfs_quota_us")
        try root.write("100000\n", to: "/sys/fs/cgroup/cpu,cpuacct/app/cpu.cfs_period_us")
        #expect(root.files.cpuQuotaCores() == 1.5)
    }

    @Test("the v1 texts: malformed files are skipped, not guessed at")
    func texts() {
        #expect(CPUQuota(cfsQuota: "150000\n", cfsPeriod: "100000\n")?.cores == 1.5)
        #expect(CPUQuota(cfsQuota: "-1", cfsPeriod: "100000") == CPUQuota(quotaMicroseconds: nil, periodMicroseconds: 100_000))
        for (quota, period) in [("0", "100000"), ("-2", "100000"), ("lots", "100000"), ("100000", "0"), ("1 2", "100000")] {
            #expect(CPUQuota(cfsQuota: quota, cfsPeriod: period) == nil, "\(quota) / \(period)")
        }
        #expect(MemoryMax(limitInBytes: "268435456\n")?.bytes == 268_435_456)
        #expect(MemoryMax(limitInBytes: "9223372036854771712") == MemoryMax(bytes: nil))
        #expect(MemoryMax(limitInBytes: "max") == nil)
        #expect(MemoryMax(limitInBytes: "-1") == nil)
        #expect(CgroupFiles.groupPath(procSelfCgroup: "4:cpu,cpuacct:/a\n0::/b\n", controller: "cpu") == "/a")
        #expect(CgroupFiles.groupPath(procSelfCgroup: "4:cpuacct:/a\n", controller: "cpu") == nil)
    }
}
