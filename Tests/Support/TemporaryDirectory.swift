import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory on the real disk for one test, removed when the test ends.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Undo a test's chmod first, so the removal cannot fail on permissions.
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }
}
