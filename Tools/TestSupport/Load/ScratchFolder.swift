import Foundation

/// A folder for one run's served images or cache, removed when the run lets go of it.
final class ScratchFolder {
    let url: URL

    init(_ role: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-load-\(role)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
