import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageDecoding
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("ImageDownloader on the real transport, against the loopback server")
struct DownloaderIntegrationTests {
    func downloader(_ configuration: ImageDownloader.Configuration = .init()) -> ImageDownloader {
        ImageDownloader(transport: CurlTransport(), registry: DownloadRegistry(), configuration: configuration)
    }

    @Test("500 requests for one URL make one transfer; every subscriber gets the body")
    func coalescing() async throws {
        try await withServer { server in
            let downloader = downloader()
            // Slow enough that all 500 have joined before the answer, even on a loaded machine.
            let url = server.url("/slow-first-byte?ms=1500")
            let logs = (0..<500).map { _ in DownloadLog() }
            for log in logs { downloader.download(DownloadRequest(url: url), handler: log.handler) }
            for log in logs { #expect(await log.result().data == Data("slow".utf8)) }
            #expect(server.requests.count == 1)
        }
    }

    @Test("requests with different Authorization headers each make their own transfer")
    func authorizationApart() async throws {
        try await withServer { server in
            let downloader = downloader()
            let url = server.url("/headers")
            let a = DownloadLog()
            let b = DownloadLog()
            downloader.download(DownloadRequest(url: url, headers: ["Authorization": "Bearer a"]), handler: a.handler)
            downloader.download(DownloadRequest(url: url, headers: ["Authorization": "Bearer b"]), handler: b.handler)
            let seenA = String(decoding: try await a.result().get().data, as: UTF8.self)
            let seenB = String(decoding: try await b.result().get().data, as: UTF8.self)
            #expect(seenA.lowercased().contains("authorization: bearer a"))
            #expect(seenB.lowercased().contains("authorization: bearer b"))
            #expect(server.requests.count == 2)
        }
    }

    @Test("a 503 with Retry-After is retried after the wait, and the download succeeds")
    func retryAfter() async throws {
        try await withServer { server in
            let clock = ManualClock()
            var configuration = ImageDownloader.Configuration(retryPolicy: .init(maximumRetries: 3, baseDelay: .milliseconds(10)))
            configuration.clock = clock
            let downloader = downloader(configuration)
            let download = Task {
                try await downloader.download(DownloadRequest(url: server.url("/flaky/a?failures=2&status=503&retry_after=1&bytes=300")))
            }
            for _ in 0..<2 {
                await clock.waitForTimers(1)
                clock.advance(by: .seconds(1))
            }
            let result = try await download.value
            #expect(result.attempts == 3)
            #expect(result.data.count == 300)
            #expect(server.requests.count == 3)
            #expect(clock.askedDurations == [.seconds(1), .seconds(1)], "two Retry-After waits of a second")
        }
    }

    @Test("a per-request credential answers Basic and Digest challenges; a wrong one ends in 401")
    func requestCredential() async throws {
        try await withServer { server in
            let downloader = downloader()
            let right = Credential(user: "ann", password: "secret")
            for path in ["/basic-auth/ann/secret", "/digest-auth/ann/secret"] {
                let result = try await downloader.download(DownloadRequest(url: server.url(path), credential: right))
                #expect(String(decoding: result.data, as: UTF8.self) == "authenticated ann", "\(path)")
            }
            let wrong = DownloadLog()
            downloader.download(
                DownloadRequest(url: server.url("/basic-auth/ann/secret"), credential: Credential(user: "ann", password: "no")),
                handler: wrong.handler)
            #expect(await wrong.result().error?.statusCode == 401)
            // Never remembered for requests without it.
            let none = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/basic-auth/ann/secret")), handler: none.handler)
            #expect(await none.result().error?.statusCode == 401)
        }
    }

    @Test("a progressive download dripping in hands out the body received so far, growing by a quarter at least, before the result")
    func progressive() async throws {
        let directory = try TemporaryDirectory()
        let bitmap = try SyntheticImage.photo(width: 320, height: 240)
        let jpeg = try JPEGFixtureEncoder(quality: 90, progressive: true).encode(bitmap)
        try jpeg.write(to: directory.url.appendingPathComponent("photo.jpg"))
        try await withServer(.init(documentRoot: directory.url)) { server in
            let downloader = downloader()
            let url = server.url("/files/photo.jpg?chunk=\(jpeg.count / 12)&interval_ms=20")
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: url, options: [.progressive]), handler: log.handler)
            let body = try await log.result().get().data
            #expect(body == jpeg)
            let bodies = log.receivedBodies
            #expect(bodies.count >= 2)
            var previous = 0
            for body in bodies {
                #expect(body.attempt == 1)
                #expect(body.bytes == jpeg.prefix(body.bytes.count), "each is the body from its first byte")
                #expect(body.bytes.count >= previous + max(4096, previous / 4))
                previous = body.bytes.count
            }
            #expect(log.all.last?.isCompletion == true, "the bodies come before the result")
            let progress = log.all.compactMap { if case .progress(let received, _) = $0 { received } else { nil } }
            #expect(progress.last == Int64(jpeg.count))

            let plain = DownloadLog()
            downloader.download(DownloadRequest(url: url), handler: plain.handler)
            let plainBody = try await plain.result().get().data
            #expect(plainBody == jpeg)
            #expect(plain.receivedBodies.isEmpty, "a download that is not progressive hands out no body")
        }
    }

    @Test("cancelling the only subscriber stops the transfer mid-body")
    func cancelMidBody() async throws {
        try await withServer { server in
            let monitor = LifecycleMonitor()
            let downloader = downloader(.init(eventMonitor: monitor))
            let log = DownloadLog()
            // Cancelled from the handler, on the transport's thread, as bytes arrive: a
            // busy test pool cannot delay the cancel until the drip (10 s) has ended.
            let tokenBox = Locked<DownloadToken?>(nil)
            let token = downloader.download(DownloadRequest(url: server.url("/drip?bytes=100000&chunk=1000&interval_ms=100"))) { event in
                log.handler(event)
                if case .progress = event { tokenBox.withLock { $0 }?.cancel() }
            }
            tokenBox.withLock { $0 = token }
            #expect(await log.result().error?.isCancelled == true)
            await monitor.allFinished()
            #expect(downloader.currentDownloadCount == 0, "the transfer ended and freed its slot")
            let counts = await monitor.settled()
            #expect(counts.stopped == 1)
            #expect(counts.finished == 1)
        }
    }

    @Test("a download abandoned by its only subscriber never completes the next download of the same key")
    func abandonedThenAgain() async throws {
        try await withServer { server in
            let downloader = downloader()
            let url = server.url("/drip?bytes=4000&chunk=1000&interval_ms=50")
            for _ in 0..<20 {
                let abandoned = DownloadLog()
                downloader.download(DownloadRequest(url: url), handler: abandoned.handler).cancel()
                // Joins the key right after the old operation was abandoned, while that
                // one may still be ending: it must get its own transfer's result.
                let next = DownloadLog()
                downloader.download(DownloadRequest(url: url), handler: next.handler)
                #expect(await abandoned.result().error?.isCancelled == true)
                let body = try await next.result().get().data
                #expect(body.count == 4000)
            }
        }
    }

    @Test("the image content-type check lets images through and refuses the rest")
    func contentTypeCheck() async throws {
        let directory = try TemporaryDirectory()
        let png = try PNGFixtureEncoder().encode(try SyntheticImage.photo(width: 8, height: 8))
        try png.write(to: directory.url.appendingPathComponent("a.png"))
        try await withServer(.init(documentRoot: directory.url)) { server in
            let downloader = downloader(.init(responseModifier: ResponseModifiers.requireImageContentType))
            let image = try await downloader.download(DownloadRequest(url: server.url("/files/a.png")))
            #expect(image.data == png)
            let refused = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/bytes/100")), handler: refused.handler)
            guard case .responseRejected = await refused.result().error else {
                Issue.record("expected responseRejected")
                return
            }
        }
    }
}
