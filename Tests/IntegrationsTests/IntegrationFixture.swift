import Foundation
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

/// A served PNG and a manager without a disk cache: one load from the network, one from
/// memory, one failure (a 404), for each adapter to report.
struct ThreeLoads {
    static let size = PixelSize(width: 40, height: 30)

    /// Runs the three loads through a manager with `monitor`, then `flush`.
    static func run(with monitor: any ImageLoadEventMonitor, flush: () async -> Void) async throws {
        let root = try TemporaryDirectory()
        defer { withExtendedLifetime(root) {} }
        try PNGFixtureEncoder().encode(SyntheticImage.photo(width: size.width, height: size.height))
            .write(to: root.url.appendingPathComponent("picture.png"))
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
            var configuration = WebImageConfiguration(cacheDirectory: nil)
            configuration.manager.eventMonitors = [monitor]
            let manager = ImageManager(configuration: configuration)
            let url = server.url("/files/picture.png")
            _ = try await manager.image(for: url)
            _ = try await manager.image(for: url)
            _ = try? await manager.image(for: server.url("/files/missing.png"))
            await flush()
        }
    }
}
