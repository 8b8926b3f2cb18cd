import Foundation
import WebImageConcurrency

/// Where the process's cgroup limits are, and what they say: the files a container
/// runtime writes when it is given `--cpus` or `--memory`.
///
/// cgroup v2 first, as below; cgroup v1 too (older distributions and container hosts):
/// `cpu.cfs_quota_us` with `cpu.cfs_period_us`, and `memory.limit_in_bytes`, found through
/// the `N:cpu,cpuacct:/path` and `N:memory:/path` lines of `/proc/self/cgroup` and the
/// `cgroup` mounts whose options name that controller, read the same way from the group
/// up to the mount's root. When both versions state a limit, the smaller wins.
///
/// The process's cgroup is the `0::/path` line of `/proc/self/cgroup`; the cgroup v2
/// hierarchy is mounted where `/proc/self/mountinfo` says (`/sys/fs/cgroup` on most
/// systems, `/sys/fs/cgroup/unified` on a hybrid one). A limit set on a parent group bounds
/// every group below it, so the limits are read from the process's group up to the root of
/// the mount and the smallest one wins. A file that is missing or does not parse is
/// skipped, never guessed at: no limit found means no limit.
///
/// Every path is read under ``root``, so a test can lay out sample files in a temporary
/// directory. Reading has no side effects and may be done from any thread.
public struct CgroupFiles: Sendable, Hashable {
    /// The directory the absolute paths (`/proc/self/cgroup`, `/sys/fs/cgroup/...`) are
    /// read under: `/` for the real system.
    public var root: String

    /// Reads the system's files, or the ones under `root`.
    public init(root: String = "/") {
        self.root = root
    }

    /// The smallest CPU quota, in cores, on the way from the process's group to the root;
    /// nil when no group has one.
    public func cpuQuotaCores() -> Double? {
        let version2 = groupDirectories().compactMap { read("\($0)/cpu.max").flatMap(CPUQuota.init(cpuMax:))?.cores }
        let version1 = version1Directories(controller: "cpu").compactMap { directory -> Double? in
            guard let quota = read("\(directory)/cpu.cfs_quota_us"), let period = read("\(directory)/cpu.cfs_period_us") else {
                return nil
            }
            return CPUQuota(cfsQuota: quota, cfsPeriod: period)?.cores
        }
        return (version2 + version1).min()
    }

    /// The smallest memory limit, in bytes, on the way from the process's group to the
    /// root; nil when no group has one.
    public func memoryLimit() -> Int? {
        let version2 = groupDirectories().compactMap { read("\($0)/memory.max").flatMap(MemoryMax.init(memoryMax:))?.bytes }
        let version1 = version1Directories(controller: "memory").compactMap {
            read("\($0)/memory.limit_in_bytes").flatMap(MemoryMax.init(limitInBytes:))?.bytes
        }
        return (version2 + version1).min()
    }

    /// The cgroup v1 directories of `controller` for the process's group and each parent
    /// up to the controller's mount, deepest first; empty when the controller has no v1
    /// mount or the process no v1 group for it.
    func version1Directories(controller: String) -> [String] {
        guard let mount = read("/proc/self/mountinfo").flatMap({ Self.cgroup1Mount(mountinfo: $0, controller: controller) }),
            let groupPath = read("/proc/self/cgroup").flatMap({ Self.groupPath(procSelfCgroup: $0, controller: controller) })
        else { return [] }
        return Self.directories(groupPath: groupPath, mountPoint: mount.point, mountRoot: mount.root)
    }

    /// The process's group directory and each parent up to the mount point, deepest first,
    /// as absolute paths of the real system (not yet under ``root``).
    func groupDirectories() -> [String] {
        let mount = read("/proc/self/mountinfo").flatMap(Self.cgroup2Mount(mountinfo:)) ?? ("/sys/fs/cgroup", "/")
        guard let groupPath = read("/proc/self/cgroup").flatMap(Self.groupPath(procSelfCgroup:)) else {
            return [mount.point]
        }
        return Self.directories(groupPath: groupPath, mountPoint: mount.point, mountRoot: mount.root)
    }

    /// The cgroup v2 path of the process: the part after `0::` in `/proc/self/cgroup`
    /// (`/system.slice/app.service`), or nil when the process is in no v2 group.
    static func groupPath(procSelfCgroup text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = line.dropFirst(3)
            return path.hasPrefix("/") ? String(path) : nil
        }
        return nil
    }

    /// The cgroup v1 path of the process for `controller`: the path of the
    /// `N:controllers:/path` line of `/proc/self/cgroup` whose comma-separated controllers
    /// include it (`4:cpu,cpuacct:/docker/abc` for `cpu`).
    static func groupPath(procSelfCgroup text: String, controller: String) -> String? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].split(separator: ",").contains(Substring(controller)),
                fields[2].hasPrefix("/")
            else { continue }
            return String(fields[2])
        }
        return nil
    }

    /// Where the cgroup v1 hierarchy of `controller` is mounted (a `cgroup` mount whose
    /// super options name it: `... - cgroup cgroup rw,cpu,cpuacct`), and the group at
    /// the root of that mount.
    static func cgroup1Mount(mountinfo text: String, controller: String) -> (point: String, root: String)? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), separator >= 5, separator + 3 < fields.count,
                fields[separator + 1] == "cgroup",
                fields[separator + 3].split(separator: ",").contains(Substring(controller))
            else { continue }
            return (String(fields[4]), String(fields[3]))
        }
        return nil
    }

    /// Where the (first) cgroup v2 hierarchy is mounted, and which group is the root of
    /// that mount (`/` unless the mount shows only part of the tree, as in a container
    /// without its own cgroup namespace), from the text of `/proc/self/mountinfo`.
    static func cgroup2Mount(mountinfo text: String) -> (point: String, root: String)? {
        for line in text.split(separator: "\n") {
            // "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw": the
            // optional fields end at "-", then come the file system type and source.
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), separator >= 5, separator + 1 < fields.count,
                fields[separator + 1] == "cgroup2"
            else { continue }
            return (String(fields[4]), String(fields[3]))
        }
        return nil
    }

    /// The directories that hold the limits of `groupPath` and of its parents, deepest
    /// first, ending at the mount point.
    static func directories(groupPath: String, mountPoint: String, mountRoot: String) -> [String] {
        // The group's path relative to the mount: inside a container without a cgroup
        // namespace the mount shows only the container's subtree, so its root is cut off.
        var relative = Substring(groupPath)
        if mountRoot != "/", relative.hasPrefix(mountRoot) { relative = relative.dropFirst(mountRoot.count) }
        var components = relative.split(separator: "/").filter { $0 != "." && $0 != ".." }
        let base = mountPoint.hasSuffix("/") ? String(mountPoint.dropLast()) : mountPoint
        var directories: [String] = []
        while !components.isEmpty {
            directories.append(base + "/" + components.joined(separator: "/"))
            components.removeLast()
        }
        directories.append(base.isEmpty ? "/" : base)
        return directories
    }

    /// The text of the file at the absolute `path` under ``root``, or nil when it cannot be
    /// read.
    private func read(_ path: String) -> String? {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        return try? String(contentsOfFile: base + path, encoding: .utf8)
    }
}
