import Foundation

/// A fresh directory under the system's temporary folder, removed by `remove()` so the
/// run leaves nothing behind (and removes it before the process exits, not in a deinit
/// that exit would skip).
struct TemporaryFolder: Sendable {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-load-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
