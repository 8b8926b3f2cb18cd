import Foundation

/// One of the package's own executables (`webimage`, `webimage-cache-writer`,
/// `webimage-load`), found in the build products folder beside the test bundle, so a
/// test can run it as a second process.
public enum BuiltExecutable {
    public struct NotBuilt: Error, CustomStringConvertible {
        public let name: String
        public let searched: [String]
        public var description: String {
            "\(name) is not built (run `swift build --build-tests`); looked in \(searched)"
        }
    }

    /// The executable called `name` in the products folder.
    public static func locate(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotBuilt(name: name, searched: candidates.map(\.path))
        }
        return found
    }
}
