import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager

/// Writes down a manager's load events about the network as words, where they happen,
/// and lets a test await the next.
final class NetworkWaitEventLog: ImageLoadEventMonitor {
    var delivery: CallbackDelivery { .immediate }
    private let words = Locked<[String]>([])
    private let signal = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)

    var heard: [String] { words.withLock { $0 } }

    /// Returns once `count` words have been heard.
    func waitFor(_ count: Int) async {
        if heard.count >= count { return }
        for await _ in signal.stream where heard.count >= count { return }
    }

    private func say(_ load: ImageLoadInfo, _ word: String) {
        words.withLock { $0.append("\(load.request.url.lastPathComponent) \(word)") }
        signal.continuation.yield()
    }

    func loadDidStart(_ load: ImageLoadInfo) { say(load, "started") }
    func load(_ load: ImageLoadInfo, isWaitingForNetworkAfter error: DownloadError, status: NetworkReachabilityStatus) {
        guard case .transport(let failure) = error else { return say(load, "waiting after \(error)") }
        say(load, "waiting for the network after \(failure.code), \(status)")
    }
    func load(_ load: ImageLoadInfo, didEndNetworkWait outcome: NetworkRecovery.WaitOutcome) {
        say(load, "stopped waiting: \(outcome)")
    }
    func load(_ load: ImageLoadInfo, didAnswerFrom source: ImageSource) { say(load, "answered from \(source)") }
    func load(_ load: ImageLoadInfo, didFail error: ImageLoadError) { say(load, "failed") }
    func loadDidCancel(_ load: ImageLoadInfo) { say(load, "cancelled") }
}

@Suite("Manager: load events for a wait for the network", .timeLimit(.minutes(1)))
struct NetworkWaitEventTests {
    let network = ScriptedReachability(.unreachable)
    let events = NetworkWaitEventLog()

    func manager(_ fixture: ScriptedFixture, clock: (any Clock<Duration>)? = nil, maximumWait: Duration = .seconds(60))
        -> ImageManager
    {
        fixture.manager {
            if let clock { $0.clock = clock }
            $0.networkRecovery = NetworkRecovery(observer: network, maximumWait: maximumWait)
            $0.eventMonitors = [events]
        }
    }

    @Test("a load refused while the network is unreachable is heard waiting, with its failure and the status, then heard back")
    func waitAndNetworkBack() async throws {
        let fixture = ScriptedFixture()
        let manager = manager(fixture)
        async let loaded = manager.image(for: fixture.url("badge.png"))
        try await fixture.downloader.download(at: 0).reply(.failure(.connectionRefused))
        await events.waitFor(2)
        #expect(events.heard == ["badge.png started", "badge.png waiting for the network after connectionRefused, unreachable"])
        network.set(.reachable(.wired))
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.badge))
        _ = try await loaded
        await events.waitFor(4)
        #expect(
            events.heard == [
                "badge.png started", "badge.png waiting for the network after connectionRefused, unreachable",
                "badge.png stopped waiting: network back", "badge.png answered from network",
            ])
    }

    @Test("each wait of a load is heard once, and its end once")
    func oncePerWait() async throws {
        let fixture = ScriptedFixture()
        let manager = manager(fixture)
        async let loaded = manager.image(for: fixture.url("badge.png"))
        for attempt in 0..<2 {
            network.set(.unreachable)
            try await fixture.downloader.download(at: attempt).reply(.failure(.dnsFailure))
            await events.waitFor(2 + 2 * attempt)
            network.set(.reachable(.wired))
            // Heard back before the network goes again: a wait that starts observing only
            // after that would rightly go on waiting.
            await events.waitFor(3 + 2 * attempt)
        }
        try await fixture.downloader.download(at: 2).reply(.body(Pictures.badge))
        _ = try await loaded
        await events.waitFor(6)
        let waiting = "badge.png waiting for the network after dnsFailure, unreachable"
        let back = "badge.png stopped waiting: network back"
        #expect(events.heard == ["badge.png started", waiting, back, waiting, back, "badge.png answered from network"])
    }

    @Test("cancelling a waiting load ends its wait with cancelled, and the load is heard cancelled")
    func cancelledWhileWaiting() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectionRefused) })
        let manager = manager(fixture)
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("badge.png"))) { _ in }
        await events.waitFor(2)
        token.cancel()
        await events.waitFor(4)
        // The load's subscriber may hear its cancel before the run's wait ends: either order.
        #expect(Set(events.heard.suffix(2)) == ["badge.png stopped waiting: cancelled", "badge.png cancelled"])
    }

    @Test("a wait that passes maximumWait ends with timed out, and the load fails")
    func timedOut() async throws {
        let clock = ManualClock()
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .failure(.connectTimeout) })
        let manager = manager(fixture, clock: clock, maximumWait: .seconds(5))
        manager.loadImage(with: ImageRequest(url: fixture.url("badge.png"))) { _ in }
        await clock.waitForTimers(1)
        #expect(events.heard.last == "badge.png waiting for the network after connectTimeout, unreachable")
        clock.advance(by: .seconds(5))
        await events.waitFor(4)
        #expect(events.heard.suffix(2) == ["badge.png stopped waiting: timed out", "badge.png failed"])
    }

    @Test("a failure that does not wait (the network reachable, or not a network failure) is not heard waiting")
    func notWaiting() async throws {
        for (status, reply) in [
            (NetworkReachabilityStatus.reachable(.wired), ScriptedDownloader.Reply.failure(.connectionRefused)),
            (.unreachable, .status(503)),
        ] {
            let events = NetworkWaitEventLog()
            let network = ScriptedReachability(status)
            let fixture = ScriptedFixture(ScriptedDownloader { _ in reply })
            let manager = fixture.manager {
                $0.networkRecovery = NetworkRecovery(observer: network)
                $0.eventMonitors = [events]
            }
            _ = try? await manager.image(for: fixture.url("badge.png"))
            await events.waitFor(2)
            #expect(events.heard == ["badge.png started", "badge.png failed"])
        }
    }
}
