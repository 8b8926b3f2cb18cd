import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager

@Suite("Manager: network recovery (waiting for the network)", .timeLimit(.minutes(1)))
struct NetworkRecoveryTests {
    /// Records each URL the recovery started waiting for, and lets a test await the next.
    final class Waits: Sendable {
        private let urls = Locked<[URL]>([])
        private let signal = AsyncStream<Void>.makeStream()
        var handler: @Sendable (URL) -> Void {
            { [self] url in
                urls.withLock { $0.append(url) }
                signal.continuation.yield()
            }
        }
        var count: Int { urls.withLock { $0.count } }
        func next() async { for await _ in signal.stream { return } }
    }

    @Test("a load refused while the network is unreachable waits, is tried again when it is back, and succeeds")
    func retriedWhenReachable() async throws {
        let fixture = ScriptedFixture()
        let network = ScriptedReachability(.unreachable)
        let waits = Waits()
        let manager = fixture.manager { $0.networkRecovery = NetworkRecovery(observer: network, waitHandler: waits.handler) }
        let url = fixture.url("badge.png")
        async let loaded = manager.image(for: url)
        try await fixture.downloader.download(at: 0).reply(.failure(.connectionRefused))
        await waits.next()
        #expect(fixture.downloader.downloads.count == 1, "no new attempt while unreachable")
        network.set(.reachable(.wired))
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.badge))
        let image = try await loaded
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(waits.count == 1)
        #expect(network.observerCount == 0, "the wait's observation ended")
    }

    @Test("a paused load stays paused through the wait: the next attempt starts paused, and one resume reaches it")
    func pauseOutlastsTheAttempt() async throws {
        let fixture = ScriptedFixture()
        let network = ScriptedReachability(.unreachable)
        let waits = Waits()
        let manager = fixture.manager { $0.networkRecovery = NetworkRecovery(observer: network, waitHandler: waits.handler) }
        let log = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: log.handler)
        let first = try await fixture.downloader.download(at: 0)
        token.pause()
        #expect(first.isPaused, "the pause reached the first attempt")
        first.reply(.failure(.connectionRefused))
        await waits.next()
        network.set(.reachable(.wired))
        let second = try await fixture.downloader.download(at: 1)
        #expect(second.isPaused, "the second attempt started paused")
        token.resume()
        #expect(!second.isPaused)
        second.reply(.body(Pictures.badge))
        let response = try await log.result().get()
        #expect(response.image?.size == PixelSize(width: 64, height: 48))
    }

    @Test(
        "a failure completes at once when the network is reachable (the server is down, not the network), or when it is not a network failure",
        arguments: [
            (NetworkReachabilityStatus.reachable(.wireless), ScriptedDownloader.Reply.failure(.connectionRefused)),
            (.unknown, .failure(.dnsFailure)),
            (.unreachable, .status(503)),
            (.unreachable, .failure(.tlsFailure)),
        ])
    func notRetried(status: NetworkReachabilityStatus, reply: ScriptedDownloader.Reply) async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in reply })
        let waits = Waits()
        let manager = fixture.manager {
            $0.networkRecovery = NetworkRecovery(observer: ScriptedReachability(status), waitHandler: waits.handler)
        }
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: fixture.url("badge.png")) }
        #expect(result.error != nil)
        #expect(fixture.downloader.downloads.count == 1)
        #expect(waits.count == 0)
    }

    @Test("without the opt-in, a failure while unreachable completes at once")
    func offByDefault() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectionRefused) })
        let manager = fixture.manager()
        #expect(manager.configuration.networkRecovery == nil)
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: fixture.url("badge.png")) }
        guard case .download(.transport(let error))? = result.error else {
            Issue.record("expected a transport error, got \(result)")
            return
        }
        #expect(error.code == .connectionRefused)
    }

    @Test("each load waits at most maximumRetries times")
    func boundedRetries() async throws {
        // Every attempt fails while the network is down; each wait sees it back at once.
        let network = ScriptedReachability(.unreachable)
        let fixture = ScriptedFixture(
            ScriptedDownloader { _ in
                network.set(.unreachable)
                return .failure(.connectTimeout)
            })
        let waits = Waits()
        let recovery = NetworkRecovery(
            observer: network, maximumRetries: 2,
            waitHandler: { url in
                waits.handler(url)
                network.set(.reachable(.wired))
            })
        let manager = fixture.manager { $0.networkRecovery = recovery }
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: fixture.url("badge.png")) }
        #expect(result.error != nil)
        #expect(fixture.downloader.downloads.count == 3, "the first attempt and two retries")
        #expect(waits.count == 2)
    }

    @Test("cancelling a load that waits for the network ends it at once with cancelled, and nothing is tried again")
    func cancelWhileWaiting() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectionRefused) })
        let network = ScriptedReachability(.unreachable)
        let waits = Waits()
        let manager = fixture.manager { $0.networkRecovery = NetworkRecovery(observer: network, waitHandler: waits.handler) }
        let log = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: log.handler)
        await waits.next()
        token.cancel()
        let result = await log.result()
        #expect(result.error?.isCancelled == true)
        network.set(.reachable(.wired))
        #expect(fixture.downloader.downloads.count == 1)
        #expect(log.completions == 1)
    }

    @Test("a cancel that comes while the first attempt's failure is still being handled ends the load: nothing is tried again")
    func cancelDuringTheFirstFailure() async throws {
        // The attempt fails before the downloader's call returns; the wait begins, and
        // the load is cancelled and the network comes back, all before that return.
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectionRefused) })
        let network = ScriptedReachability(.unreachable)
        let tokenBox = Locked<ImageLoadToken?>(nil)
        let tokenSet = DispatchSemaphore(value: 0)
        let recovery = NetworkRecovery(
            observer: network,
            waitHandler: { _ in
                tokenSet.wait()
                tokenBox.withLock { $0 }?.cancel()
                network.set(.reachable(.wired))
            })
        let manager = fixture.manager { $0.networkRecovery = recovery }
        let log = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: log.handler)
        tokenBox.withLock { $0 = token }
        tokenSet.signal()
        let result = await log.result()
        #expect(result.error?.isCancelled == true)
        #expect(fixture.downloader.downloads.count == 1, "the network came back after the cancel: no second attempt")
        #expect(log.completions == 1)
        // The wait closes its observation as it ends, which may come after the cancel is heard.
        await network.allObservationsEnded()
        #expect(network.observerCount == 0)
    }

    @Test("suspendsQueueWhileUnreachable pauses the downloader's queue while unreachable and resumes it when the network is back")
    func queueSuspension() async throws {
        let downloader = SuspendableDownloader(ScriptedDownloader())
        let network = ScriptedReachability(.reachable(.wired))
        let manager = ImageManager(
            downloader: downloader, decoders: ImageDecoderRegistry.standard,
            registry: CallbackRegistry<ImageLoadKey, DecodedImage, ImageResponse, ImageLoadError>(),
            memoryCache: nil, diskCache: nil,
            configuration: { () -> ImageManager.Configuration in
                var configuration = ImageManager.Configuration()
                configuration.networkRecovery = NetworkRecovery(observer: network, suspendsQueueWhileUnreachable: true)
                return configuration
            }())
        #expect(downloader.suspensions.isEmpty, "reachable at first: the queue is left as it is")
        network.set(.unreachable)
        network.set(.unknown)
        network.set(.unreachable)
        network.set(.reachable(.wireless))
        #expect(downloader.suspensions == ["suspend", "resume", "suspend", "resume"])
        withExtendedLifetime(manager) {}
    }
}
