import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import WebImage
import WebImageFixtures
import WebImageLifecycle
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager
@testable import WebImageResources

/// The load under way is held at the memory budget (the test takes all of it), not at the
/// server: no network timer runs while it waits, however slowly the suite runs the test.
@Suite("WebImageLifecycle: the manager as a Service", .timeLimit(.minutes(1)))
struct ImageManagerServiceTests {
    /// A served PNG, a manager with a disk cache and a budget the test holds whole, and
    /// `body` with them and the signal that a load waits for the budget.
    func withManager(
        _ body: (LoopbackServer, ImageManager, MemoryReservation, AsyncStream<Void>) async throws -> Void
    ) async throws {
        let root = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        defer { withExtendedLifetime((root, cache)) {} }
        try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 40, height: 30)).write(
            to: root.url.appendingPathComponent("picture.png"))
        let queued = AsyncStream<Void>.makeStream()
        let budget = MemoryBudget(capacity: 1 << 20, onQueued: { queued.continuation.yield() })
        let whole = try await budget.reserve(1 << 20)
        defer { whole.release() }
        try await LoopbackServer.withServer(.init(documentRoot: root.url)) { server in
            var configuration = WebImageConfiguration(cacheDirectory: cache.url)
            configuration.manager.memoryBudget = budget
            let manager = ImageManager(configuration: configuration)
            try await body(server, manager, whole, queued.stream)
            #expect(budget.waiting == 0)
        }
    }

    @Test("on graceful shutdown: new loads fail with shutdown, a load under way finishes, its bytes are on disk when run() returns")
    func graceful() async throws {
        try await withManager { server, manager, whole, queued in
            try await testGracefulShutdown { trigger in
                let service = ImageManagerService(manager: manager, gracePeriod: .seconds(30))
                // The service shuts the manager down on a task of its own.
                let shutdownBegan = EventSignal()
                let watching = manager.observeShutdown(shutdownBegan.callback)
                defer { watching.remove() }
                async let ran: Void = service.run()
                let request = ImageRequest(url: server.url("/files/picture.png"))
                let log = LoadLog()
                let token = manager.loadImage(with: request, handler: log.handler)
                // Downloaded, and waiting for the budget to decode.
                for await _ in queued { break }
                trigger.triggerGracefulShutdown()
                await shutdownBegan.wait { manager.isShutdown }

                let refused = LoadLog()
                manager.loadImage(with: ImageRequest(url: server.url("/files/picture.png?again")), handler: refused.handler)
                let outcome = await refused.result()
                guard case .failure(.shutdown) = outcome else {
                    Issue.record("a new load during shutdown: \(outcome)")
                    return
                }
                whole.release()
                try await ran
                withExtendedLifetime(token) {}
                let finished = await log.result()
                #expect((try? finished.get())?.image?.size == PixelSize(width: 40, height: 30), "\(finished)")
                let stored = await manager.diskCache?.response(forKey: request.dataKey)
                #expect(stored != nil, "the write waited for no load: flushed")
            }
        }
    }

    @Test("past the grace period, loads still under way are cancelled and run() returns")
    func gracePeriodOver() async throws {
        try await withManager { server, manager, _, queued in
            try await testGracefulShutdown { trigger in
                let service = ImageManagerService(manager: manager, gracePeriod: .zero)
                async let ran: Void = service.run()
                let log = LoadLog()
                let token = manager.loadImage(with: ImageRequest(url: server.url("/files/picture.png")), handler: log.handler)
                for await _ in queued { break }
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
