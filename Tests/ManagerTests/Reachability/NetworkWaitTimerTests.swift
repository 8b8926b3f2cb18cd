import Foundation
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageCore
@testable import WebImageManager

@Suite("Manager: the bound of a wait for the network, on the manager's clock", .timeLimit(.minutes(1)))
struct NetworkWaitTimerTests {
    let clock = ManualClock()
    let network = ScriptedReachability(.unreachable)

    /// A manager over `fixture` whose waits for the network run on the test's clock.
    func manager(_ fixture: ScriptedFixture, maximumWait: Duration = .seconds(60)) -> ImageManager {
        fixture.manager {
            $0.clock = clock
            $0.networkRecovery = NetworkRecovery(observer: network, maximumWait: maximumWait)
        }
    }

    @Test("the wait ends when the clock passes maximumWait, and the load fails with the error it had")
    func boundedWait() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.dnsFailure) })
        let manager = manager(fixture, maximumWait: .seconds(30))
        let log = LoadLog()
        manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: log.handler)
        await clock.waitForTimers(1)
        #expect(clock.askedDurations == [.seconds(30)])
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(clock.timerCount == 1, "not before the bound")
        clock.advance(by: .nanoseconds(1))
        guard case .failure(.download(.transport(let error))) = await log.result() else {
            Issue.record("expected the DNS failure, got \(log.all)")
            return
        }
        #expect(error.code == .dnsFailure)
        #expect(log.completions == 1)
        #expect(fixture.downloader.downloads.count == 1)
        #expect(network.observerCount == 0, "the wait's observation ended")
    }

    @Test("cancelling a load during its wait stops the wait's timer, and the load completes once, with cancelled")
    func cancelStopsTheTimer() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectionRefused) })
        let manager = manager(fixture)
        let log = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png")), handler: log.handler)
        await clock.waitForTimers(1)
        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        await clock.waitForTimers(0)
        #expect(network.observerCount == 0)
        network.set(.reachable(.wired))
        #expect(log.completions == 1)
        #expect(fixture.downloader.downloads.count == 1, "nothing tried again")
    }

    @Test("the network coming back stops the wait's timer as the load is tried again")
    func networkBackStopsTheTimer() async throws {
        let fixture = ScriptedFixture()
        let manager = manager(fixture)
        async let loaded = manager.image(for: fixture.url("badge.png"))
        try await fixture.downloader.download(at: 0).reply(.failure(.connectionRefused))
        await clock.waitForTimers(1)
        network.set(.reachable(.wired))
        // The timer started on a task of its own may still be arriving at the clock: the
        // wait's end stops it as soon as it is held.
        await clock.waitForTimers(0)
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.badge))
        let image = try await loaded
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(clock.askedDurations == [.seconds(60)], "one wait")
    }
}
