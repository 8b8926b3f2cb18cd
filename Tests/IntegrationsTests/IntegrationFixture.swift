import Foundation
import Synchronization
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

/// One load that waits for the network once, through the real transport: its download
/// is refused (a closed loopback port) while ``WatchedNetwork`` says the network is
/// unreachable; the network is back as soon as the wait watches it, the second attempt
/// is refused again while the network is reachable, and the load fails.
enum OneNetworkWait {
    static let url = URL(string: "http://127.0.0.1:1/picture.png")!

    /// Runs the load through a manager with `monitor`, then `flush`.
    static func run(with monitor: any ImageLoadEventMonitor, flush: () async -> Void) async {
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.manager.eventMonitors = [monitor]
        configuration.manager.networkRecovery = NetworkRecovery(observer: WatchedNetwork())
        let manager = ImageManager(configuration: configuration)
        _ = try? await manager.image(for: url)
        await manager.shutdown()
        await flush()
    }
}

/// A network that is unreachable until something watches it (a load's wait for the
/// network), and reachable from then on.
final class WatchedNetwork: NetworkReachabilityObserving {
    private let reachable = Atomic<Bool>(false)

    var currentStatus: NetworkReachabilityStatus { reachable.load(ordering: .sequentiallyConsistent) ? .reachable(.wired) : .unreachable }

    func observe(delivery: CallbackDelivery, _ handler: @escaping @Sendable (NetworkReachabilityStatus) -> Void) -> ReachabilityObservation
    {
        reachable.store(true, ordering: .sequentiallyConsistent)
        delivery.run { handler(.reachable(.wired)) }
        return ReachabilityObservation {}
    }
}
