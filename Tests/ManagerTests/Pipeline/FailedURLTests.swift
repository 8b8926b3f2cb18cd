import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageManager

@Suite("Manager: the failed-URL set", .timeLimit(.minutes(1)))
struct FailedURLTests {
    @Test("a 404 or 410 is remembered: the next load fails at once without a download; retryFailed asks again", arguments: [404, 410])
    func permanentStatusIsRemembered(status: Int) async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let url = fixture.url("missing.png")
        async let first = outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
        try await fixture.downloader.download(at: 0).reply(.status(status))
        let failure = await first.error
        #expect(failure?.isPermanent == true)
        #expect(failure.flatMap { if case .download(let error) = $0 { error.statusCode } else { nil } } == status)

        let second = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
        guard case .failedRecently(let failed)? = second.error else {
            Issue.record("expected failedRecently, got \(second)")
            return
        }
        #expect(failed == url)
        #expect(fixture.downloader.downloads.count == 1, "no second download")

        async let retried = manager.image(for: url, options: [.retryFailed])
        try await fixture.downloader.download(at: 1).reply(.body(Pictures.badge))
        let image = try await retried
        #expect(image.size == PixelSize(width: 64, height: 48))
        #expect(manager.failedURLs.count == 0, "a success forgets the failure")
    }

    @Test("a body that does not decode is remembered too")
    func decodeFailureIsRemembered() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let url = fixture.url("corrupt.jpg")
        _ = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
        #expect(manager.failedURLs.contains(ImageRequest(url: url).dataKey))
    }

    @Test(
        "transient failures are never remembered: 5xx, a reset, a timeout",
        arguments: [ScriptedDownloader.Reply.status(503), .status(500), .failure(.connectionReset), .failure(.timedOut)])
    func transientFailures(reply: ScriptedDownloader.Reply) async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in reply })
        let manager = fixture.manager()
        let url = fixture.url("flaky.png")
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
        #expect(result.error?.isPermanent == false)
        #expect(manager.failedURLs.count == 0)
        _ = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
        #expect(fixture.downloader.downloads.count == 2, "the next load tries again")
    }

    @Test("a cancelled load is never remembered")
    func cancellationIsNotRemembered() async throws {
        let fixture = ScriptedFixture()
        let manager = fixture.manager()
        let log = LoadLog()
        let token = manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg")), handler: log.handler)
        _ = try await fixture.downloader.download(at: 0)
        token.cancel()
        #expect(await log.result().error?.isCancelled == true)
        #expect(manager.failedURLs.count == 0)
    }

    @Test("the manager's retry interval applies: with none, a failed URL is asked for again at once")
    func retryIntervalFromTheConfiguration() async throws {
        let fixture = ScriptedFixture(ScriptedDownloader { _ in .status(404) })
        let manager = fixture.manager { $0.failedURLRetryInterval = .zero }
        let url = fixture.url("missing.png")
        for _ in 0..<2 { _ = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) } }
        #expect(fixture.downloader.downloads.count == 2)
    }

    @Test("a failure is remembered for exactly the retry interval; entries can be removed one by one or all")
    func expiryAndRemoval() {
        let start = ContinuousClock.now
        let elapsed = Locked(Duration.zero)
        let remembered = FailedURLSet(retryInterval: .seconds(600), now: { start + elapsed.withLock { $0 } })
        remembered.insert("a")
        remembered.insert("b")
        elapsed.withLock { $0 = .seconds(599) }
        #expect(remembered.contains("a") && remembered.contains("b"), "within the interval")
        remembered.remove("a")
        #expect(!remembered.contains("a") && remembered.contains("b"))
        elapsed.withLock { $0 = .seconds(600) }
        #expect(remembered.count == 1, "kept until looked up")
        #expect(!remembered.contains("b"), "a whole interval later: expired")
        #expect(remembered.count == 0, "an expired entry is dropped when looked up")

        remembered.insert("c")
        remembered.insert("d")
        remembered.removeAll()
        #expect(remembered.count == 0 && !remembered.contains("c"))
    }
}
