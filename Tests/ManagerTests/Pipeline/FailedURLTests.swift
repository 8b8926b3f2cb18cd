import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@Suite("Manager: the failed-URL set")
struct FailedURLTests {
    @Test("a 404 is remembered: the next load fails at once without a request, retryFailed fetches again")
    func notFoundIsRemembered() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("missing.png")
            let first = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            #expect(first.error?.isPermanent == true)
            #expect(first.error.flatMap { if case .download(let error) = $0 { error.statusCode } else { nil } } == 404)

            let second = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            guard case .failedRecently(let failed)? = second.error else {
                Issue.record("expected failedRecently, got \(second)")
                return
            }
            #expect(failed == url)
            #expect(fixture.hits("missing.png") == 1, "no second request")

            try Pictures.badge.write(to: fixture.root.appendingPathComponent("missing.png"))
            let retried = try await manager.image(for: url, options: [.retryFailed])
            #expect(retried.size == PixelSize(width: 64, height: 48))
            #expect(manager.failedURLs.count == 0, "a success forgets the failure")
        }
    }

    @Test("a body that does not decode is remembered too")
    func decodeFailureIsRemembered() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let url = fixture.url("corrupt.jpg")
            _ = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
            #expect(manager.failedURLs.contains(ImageRequest(url: url).dataKey))
        }
    }

    @Test("transient failures are never remembered: 503, a reset, a cancellation")
    func transientFailures() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            for path in ["/status/503", "/reset?bytes=10000&after=1000"] {
                let url = fixture.server.url(path)
                let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: url) }
                #expect(result.error?.isPermanent == false)
                #expect(!manager.failedURLs.contains(ImageRequest(url: url).dataKey), "\(path)")
            }
            let log = LoadLog()
            manager.loadImage(with: ImageRequest(url: fixture.url("photo.jpg", query: "chunk=100&interval_ms=100")), handler: log.handler)
                .cancel()
            #expect(await log.result().error?.isCancelled == true)
            #expect(manager.failedURLs.count == 0)
        }
    }

    @Test("entries expire after the retry interval, and can be removed one by one or all")
    func expiryAndRemoval() async throws {
        let failed = FailedURLSet(retryInterval: .milliseconds(100))
        failed.insert("a")
        failed.insert("b")
        #expect(failed.contains("a") && failed.contains("b"))
        failed.remove("a")
        #expect(!failed.contains("a") && failed.contains("b"))
        try await Task.sleep(for: .milliseconds(150))
        #expect(!failed.contains("b"), "expired")
        failed.insert("c")
        failed.removeAll()
        #expect(failed.count == 0 && !failed.contains("c"))
    }
}
