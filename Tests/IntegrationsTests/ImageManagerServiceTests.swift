import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import WebImage
import WebImageFixtures
import WebImageLifecycle
import WebImageTestServer
import WebImageTestSupport

@Suite("WebImageLifecycle: the manager as a Service", .timeLimit(.minutes(1)))
struct ImageManagerServiceTests {
    /// A served PNG, a manager with a disk cache, and `body` with both.
    func withManager(_ body: (LoopbackServer, ImageManager, URL) async throws -> Void) async throws {
        let root = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        defer { withExtendedLifetime((root, cache)) {} }
        try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 40, height: 30)).write(
            to: root.url.appendingPathComponent("picture.png"))
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
            let manager = ImageManager(configuration: WebImageConfiguration(cacheDirectory: cache.url))
            try await body(server, manager, cache.url)
        }
    }

    @Test("on graceful shutdown: new loads fail with shutDown, a load under way finishes, its bytes are on disk when run() returns")
    func graceful() async throws {
        try await withManager { server, manager, _ in
            try await testGracefulShutdown { trigger in
                let service = ImageManagerService(manager: manager, gracePeriod: .seconds(30))
                async let ran: Void = service.run()
                let held = ImageRequest(url: server.url("/files/picture.png?gate=held"))
                let log = LoadLog()
                let token = manager.loadImage(with: held, handler: log.handler)
                await server.requestsArrived(1)
                trigger.triggerGracefulShutdown()
                while !manager.isShutDown { await Task.yield() }

                let refused = LoadLog()
                manager.loadImage(with: ImageRequest(url: server.url("/files/picture.png")), handler: refused.handler)
                let outcome = await refused.result()
                guard case .failure(.shutDown) = outcome else {
                    Issue.record("a new load during shutdown: \(outcome)")
                    return
                }
                server.openGate("held")
                try await ran
                withExtendedLifetime(token) {}
                let finished = await log.result()
                #expect((try? finished.get())?.image?.size == PixelSize(width: 40, height: 30), "\(finished)")
                let stored = await manager.diskCache?.response(forKey: held.dataKey)
                #expect(stored != nil, "the write waited for no load: flushed")
            }
        }
    }

    @Test("past the grace period, loads still under way are cancelled and run() returns")
    func gracePeriodOver() async throws {
        try await withManager { server, manager, _ in
            try await testGracefulShutdown { trigger in
                let service = ImageManagerService(manager: manager, gracePeriod: .zero)
                async let ran: Void = service.run()
                let log = LoadLog()
                let token = manager.loadImage(with: ImageRequest(url: server.url("/files/picture.png?gate=never")), handler: log.handler)
                await server.requestsArrived(1)
                trigger.triggerGracefulShutdown()
                try await ran
                withExtendedLifetime(token) {}
                let outcome = await log.result()
                #expect(outcome.error?.isCancelled == true, "\(outcome)")
            }
        }
    }
}

/// A load's events, and its result once it came.
final class LoadLog: Sendable {
    private let result = AsyncStream<Result<ImageResponse, ImageLoadError>>.makeStream()

    var handler: @Sendable (ImageLoadEvent) -> Void {
        { [result] event in
            if case .completed(let outcome) = event { result.continuation.yield(outcome) }
        }
    }

    func result() async -> Result<ImageResponse, ImageLoadError> {
        for await outcome in result.stream { return outcome }
        return .failure(.cancelled)
    }
}
