import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageManager

/// A scripted downloader that runs a hook as each download is asked for, before the
/// download exists: where a subscriber's cancel can come before the attempt's token is
/// ready.
private final class HookedDownloader: ImageDownloading {
    let base: ScriptedDownloader
    private let hook = Locked<(@Sendable () -> Void)?>(nil)

    init(_ base: ScriptedDownloader) { self.base = base }

    /// Runs `body` as the next download is asked for.
    func beforeNextDownload(_ body: @escaping @Sendable () -> Void) {
        hook.withLock { $0 = body }
    }

    func download(_ request: DownloadRequest, delivery: CallbackDelivery, handler: @escaping @Sendable (DownloadEvent) -> Void)
        -> DownloadToken
    {
        download(request, delivery: delivery, tokenReady: { _ in }, handler: handler)
    }

    func download(
        _ request: DownloadRequest, delivery: CallbackDelivery, tokenReady: (DownloadToken) -> Void,
        handler: @escaping @Sendable (DownloadEvent) -> Void
    ) -> DownloadToken {
        hook.withLock { hook in
            defer { hook = nil }
            return hook
        }?()
        return base.download(request, delivery: delivery, tokenReady: tokenReady, handler: handler)
    }
}

/// The completions one subscriber got, with what the wait still held as each came.
private final class Completions: Sendable {
    struct Completion {
        let result: Result<DownloadResult, DownloadError>
        let timers: Int
        let observers: Int
    }

    private let all = Locked<[Completion]>([])
    let clock: ManualClock
    let network: ScriptedReachability

    init(clock: ManualClock, network: ScriptedReachability) {
        self.clock = clock
        self.network = network
    }

    var handler: @Sendable (DownloadEvent) -> Void {
        { [self] event in
            guard case .completed(let result) = event else { return }
            let completion = Completion(result: result, timers: clock.timerCount, observers: network.observerCount)
            all.withLock { $0.append(completion) }
        }
    }

    var list: [Completion] { all.withLock { $0 } }
}

@Suite("Manager: one download under network recovery (its attempts, its wait, its token)", .timeLimit(.minutes(1)))
struct RecoveringDownloadTests {
    let clock = ManualClock()
    let network = ScriptedReachability(.unreachable)
    let request = DownloadRequest(url: URL(string: "https://images.test/badge.png")!)

    /// A downloader whose downloads fail with `connectionRefused` while the network is
    /// unreachable, and answer with the badge at once when it is reachable.
    private func downloader() -> HookedDownloader {
        let network = self.network
        return HookedDownloader(
            ScriptedDownloader { _ in network.currentStatus == .unreachable ? .failure(.connectionRefused) : .body(Pictures.badge) })
    }

    private func recovering(_ base: HookedDownloader) -> NetworkRecoveringDownloader {
        NetworkRecoveringDownloader(base: base, recovery: NetworkRecovery(observer: network), clock: clock)
    }

    @Test("a cancel while the next attempt is being asked for cancels that attempt as its token is ready: one completion, cancelled")
    func cancelWhileTheRetryIsAskedFor() {
        let base = downloader()
        let completions = Completions(clock: clock, network: network)
        // The first attempt fails, and the wait begins, before `download` returns.
        let token = recovering(base).download(request, delivery: .immediate, handler: completions.handler)
        base.beforeNextDownload { token.cancel() }
        network.set(.reachable(.wired))
        #expect(base.base.downloads.count == 2)
        #expect(base.base.downloads.last?.isCancelled == true, "the retry was cancelled before it answered")
        #expect(completions.list.count == 1)
        #expect(completions.list.first?.result.error?.isCancelled == true)
        network.set(.unreachable)
        network.set(.reachable(.wired))
        #expect(base.base.downloads.count == 2, "nothing asked after the cancel")
    }

    @Test("cancelling during the wait ends the wait's timer and observation before the subscriber hears cancelled, once")
    func cancelDuringTheWait() async throws {
        let base = downloader()
        let completions = Completions(clock: clock, network: network)
        let token = recovering(base).download(request, delivery: .immediate, handler: completions.handler)
        await clock.waitForTimers(1)
        token.cancel()
        let completion = try #require(completions.list.first)
        #expect(completion.result.error?.isCancelled == true)
        #expect(completion.timers == 0, "the timer stopped")
        #expect(completion.observers == 0, "the observation stopped")
        clock.advance(by: .seconds(3600))
        network.set(.reachable(.wired))
        #expect(completions.list.count == 1)
        #expect(base.base.downloads.count == 1)
    }
}
