import Foundation
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// A served folder of pictures, a cache folder, and a manager over them.
/// (`withFixture` keeps the folders alive and removes them after the test.)
struct Fixture: Sendable {
    /// The served folder: `/files/<name>`.
    let root: URL
    let cacheDirectory: URL
    let server: LoopbackServer

    /// A new manager on the fixture's cache folder (a fresh memory cache each time).
    func manager(_ change: (inout WebImageConfiguration) -> Void = { _ in }) -> ImageManager {
        var configuration = WebImageConfiguration(cacheDirectory: cacheDirectory)
        change(&configuration)
        return ImageManager(configuration: configuration)
    }

    func url(_ name: String, query: String = "") -> URL {
        server.url("/files/\(name)\(query.isEmpty ? "" : "?" + query)")
    }

    /// GET requests the server saw for `name`.
    func hits(_ name: String) -> Int {
        server.requests.filter { $0.path == "/files/\(name)" }.count
    }
}

/// Runs `body` with the pictures served from a fresh folder.
func withFixture<R>(_ body: (Fixture) async throws -> R) async throws -> R {
    let root = try TemporaryDirectory()
    let cache = try TemporaryDirectory()
    for (name, data) in Pictures.byName {
        try data.write(to: root.url.appendingPathComponent(name))
    }
    defer { withExtendedLifetime((root, cache)) {} }
    return try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
        try await body(Fixture(root: root.url, cacheDirectory: cache.url, server: server))
    }
}
