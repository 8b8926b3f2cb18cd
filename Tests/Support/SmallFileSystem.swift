import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmpfs of a fixed size mounted on a fresh directory, so a test can fill a real file
/// system to ENOSPC; unmounted when released. Mounting needs root.
public final class SmallFileSystem {
    public let directory: TemporaryDirectory
    public var url: URL { directory.url }

    /// Whether this process may mount one (root, and a kernel that lets it).
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? SmallFileSystem(size: "64k") else { return false }
        withExtendedLifetime(probe) {}
        return true
    }()

    public struct MountFailed: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String { "mount -t tmpfs failed with status \(status)" }
    }

    /// Mounts a tmpfs of `size` (mount's notation: "256k", "1m").
    public init(size: String) throws {
        directory = try TemporaryDirectory()
        let status = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory.path])
        guard status == 0 else { throw MountFailed(status: status) }
    }

    deinit {
        _ = try? Self.run("/bin/umount", [directory.path])
    }

    private static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        try SpawnedProcess(path, arguments).waitForExit().status
    }
}
