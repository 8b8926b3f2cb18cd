import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

/// The downloader's seeded behaviours as the server and the real transport see them.
@Suite("ImageDownloader's requests and events, as the loopback server sees them")
struct DownloaderOnTheWireTests {
    /// What the server received as `name`, from the text `/headers` answers with.
    private static func header(_ name: String, in body: Data) -> String? {
        let prefix = name.lowercased() + ": "
        return String(decoding: body, as: UTF8.self).split(separator: "\n")
            .first { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
    }

    private static func body(_ downloader: ImageDownloader, _ request: DownloadRequest) async throws -> Data {
        let log = DownloadLog()
        downloader.download(request, handler: log.handler)
        return try await log.result().get().data
    }

    @Test("default headers changed on the running downloader go with the downloads started after the change")
    func liveDefaultHeaders() async throws {
        try await withServer { server in
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(), configuration: .init(defaultHeaders: ["X-Token": "first"]))
            let url = server.url("/headers")
            let first = try await Self.body(downloader, DownloadRequest(url: url))
            #expect(Self.header("X-Token", in: first) == "first")
            downloader.setDefaultHeader("X-Token", value: "second")
            downloader.setDefaultHeader("X-Client", value: "demo")
            let changed = try await Self.body(downloader, DownloadRequest(url: url))
            #expect(Self.header("X-Token", in: changed) == "second")
            #expect(Self.header("X-Client", in: changed) == "demo")
            let own = try await Self.body(downloader, DownloadRequest(url: url, headers: ["X-Token": "mine"]))
            #expect(Self.header("X-Token", in: own) == "mine", "a request's own header wins")
            downloader.setDefaultHeader("X-Token", value: nil)
            let removed = try await Self.body(downloader, DownloadRequest(url: url))
            #expect(Self.header("X-Token", in: removed) == nil)
            #expect(downloader.defaultHeaders["X-Client"] == "demo")
        }
    }

    @Test("the request modifier's request is the one the server receives")
    func modifierSeenByServer() async throws {
        try await withServer { server in
            let modifier: RequestModifier = { request in
                var signed = request
                signed.headers.set("Authorization", "Bearer signed")
                signed.url = URL(string: request.url.absoluteString + "?signature=abc")!
                return signed
            }
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(), configuration: .init(requestModifier: modifier))
            let body = try await Self.body(downloader, DownloadRequest(url: server.url("/headers")))
            #expect(Self.header("Authorization", in: body) == "Bearer signed")
            #expect(server.requests.map(\.uri) == ["/headers?signature=abc"])
        }
    }

    @Test("a request modifier that throws or returns nil rejects the download, and nothing reaches the server")
    func modifierRejects() async throws {
        struct Expired: Error {}
        try await withServer { server in
            for modifier: RequestModifier in [{ _ in throw Expired() }, { _ in nil }] {
                let downloader = ImageDownloader(
                    transport: CurlTransport(), registry: DownloadRegistry(), configuration: .init(requestModifier: modifier))
                let log = DownloadLog()
                downloader.download(DownloadRequest(url: server.url("/bytes/10")), handler: log.handler)
                guard case .requestRejected = await log.result().error else {
                    Issue.record("expected requestRejected, got \(await log.result())")
                    continue
                }
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("cancelAll ends the running download and those queued behind it as cancelled; the queued ones never reach the server")
    func cancelAll() async throws {
        try await withServer { server in
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(),
                configuration: .init(stallTimeout: nil, maximumConcurrentDownloads: 1))
            let running = DownloadLog()
            // Held at the gate until cancelled: no stall timeout, and its own whole-transfer
            // timeout past any wait of a loaded test run, so that only cancelAll ends it.
            downloader.download(
                DownloadRequest(url: server.url("/gate/all?bytes=5000&first=1000"), timeout: .seconds(600)), handler: running.handler)
            let queued = (1...3).map { size in
                let log = DownloadLog()
                downloader.download(DownloadRequest(url: server.url("/bytes/\(size)")), handler: log.handler)
                return log
            }
            await server.requestsArrived(1)
            downloader.cancelAll()
            #expect(await running.result().error?.isCancelled == true)
            for log in queued { #expect(await log.result().error?.isCancelled == true) }
            #expect(server.requests.map(\.path) == ["/gate/all"])
        }
    }

    @Test("retries stop at the policy's maximum, and a 404 is never retried, as the server counts the requests")
    func retryLimits() async throws {
        try await withServer { server in
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(),
                configuration: .init(
                    retryPolicy: RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(5), jitter: 0)))
            let unavailable = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/flaky/limit?failures=5")), handler: unavailable.handler)
            #expect(await unavailable.result().error?.statusCode == 503)
            let gone = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/flaky/gone?failures=5&status=404")), handler: gone.handler)
            #expect(await gone.result().error?.statusCode == 404)
            #expect(server.requests.map(\.path) == Array(repeating: "/flaky/limit", count: 3) + ["/flaky/gone"])
        }
    }

    @Test("allowInvalidCertificates lets a download reach a self-signed server; without it the handshake is refused and nothing is sent")
    func allowInvalidCertificates() async throws {
        try await withServer(.init(tls: TestCertificateAuthority.selfSigned())) { server in
            let downloader = ImageDownloader(transport: CurlTransport(), registry: DownloadRegistry())
            let refused = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/bytes/10")), handler: refused.handler)
            #expect(await refused.result().error?.transportCode == .serverTrustFailed)
            #expect(server.requests.isEmpty)
            let allowed = try await Self.body(
                downloader, DownloadRequest(url: server.url("/bytes/10"), options: [.allowInvalidCertificates]))
            #expect(allowed == rangePattern(10))
            #expect(server.requests.count == 1)
        }
    }

    @Test("progress starts at zero of an unknown length, then zero of the expected length when the response arrives")
    func progressFromZero() async throws {
        let size = 50_000
        try await withServer { server in
            let downloader = ImageDownloader(transport: CurlTransport(), registry: DownloadRegistry())
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/range/p?bytes=\(size)")), handler: log.handler)
            let body = try await log.result().get().data
            #expect(body == rangePattern(size))
            let progress = log.all.compactMap { event -> [Int64?]? in
                if case .progress(let received, let expected) = event { [received, expected] } else { nil }
            }
            try #require(progress.count >= 3)
            #expect(progress[0] == [0, nil], "the attempt starts with nothing known")
            #expect(progress[1] == [0, Int64(size)], "the response says how much will come")
            #expect(progress.last == [Int64(size), Int64(size)])
        }
    }

    @Test("a download that continues kept bytes counts its progress from them")
    func progressFromResumedOffset() async throws {
        let total = 200_000
        try await withServer { server in
            let client = try ResumingDownloader()
            let url = server.url("/range/resumed?bytes=\(total)&first=close&after=60000")
            #expect(await client.result(url).error?.transportCode == .truncatedBody)
            let log = DownloadLog()
            client.downloader.download(DownloadRequest(url: url), handler: log.handler)
            let body = try await log.result().get().data
            #expect(body == rangePattern(total))
            let ranges = server.rangeRequests
            try #require(ranges.count == 1)
            let offset = try #require(ranges[0].header("range").flatMap { Int64($0.dropFirst("bytes=".count).dropLast()) })
            let received = log.all.compactMap { if case .progress(let received, _) = $0 { received } else { nil } }
            #expect(received.first == offset, "the first progress is the kept bytes")
            #expect(received.allSatisfy { $0 >= offset })
            #expect(received.last == Int64(total))
        }
    }

    @Test("a subscriber that cancels is reported to monitors, and the shared transfer goes on for the other")
    func subscriberCancelledEvent() async throws {
        try await withServer { server in
            let monitor = CancelMonitor()
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(), configuration: .init(eventMonitor: monitor))
            let url = server.url("/drip?bytes=4000&chunk=1000&interval_ms=50")
            let staying = DownloadLog()
            let leaving = DownloadLog()
            downloader.download(DownloadRequest(url: url), handler: staying.handler)
            let token = downloader.download(DownloadRequest(url: url), handler: leaving.handler)
            token.cancel()
            #expect(await leaving.result().error?.isCancelled == true)
            let body = try await staying.result().get().data
            #expect(body.count == 4000)
            #expect(await monitor.cancelled() == [token.subscription])
            #expect(server.requests.count == 1)
        }
    }

    @Test("runningDownloads lists a download in flight with its phase, progress and subscribers, and none once it ended")
    func runningDownloads() async throws {
        try await withServer { server in
            let monitor = LifecycleMonitor()
            // Held at the gate until the listing is read: no stall timeout, and a
            // whole-transfer timeout past any wait of a loaded test run, so that the
            // download is still running when it is.
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(),
                configuration: .init(stallTimeout: nil, eventMonitor: monitor))
            let url = server.url("/gate/listed?bytes=5000&first=1000")
            let progress = ProgressWaiter()
            let other = DownloadLog()
            downloader.download(DownloadRequest(url: url, timeout: .seconds(600)), handler: progress.handler)
            downloader.download(DownloadRequest(url: url, priority: .high, timeout: .seconds(600)), handler: other.handler)
            #expect(await progress.reached(1000))
            let listed = downloader.runningDownloads
            try #require(listed.count == 1)
            #expect(listed[0].url == url)
            #expect(listed[0].phase == .transferring)
            #expect(listed[0].isPaused == false)
            #expect(listed[0].attempt == 1)
            #expect(listed[0].received == 1000, "the server holds the rest")
            #expect(listed[0].expected == 5000)
            #expect(listed[0].subscribers == 2)
            server.openGate("listed")
            #expect(await other.result().data?.count == 5000)
            await monitor.allFinished()
            #expect(downloader.runningDownloads.isEmpty)
        }
    }

    @Test("the default timeouts are 15 s whole, 10 s to connect and 10 s of silence, and the transfer is sent with them")
    func defaultTimeouts() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let sent = SentRequests()
            transport.addEventMonitor(sent, delivery: .immediate)
            let downloader = ImageDownloader(transport: transport, registry: DownloadRegistry())
            _ = try await Self.body(downloader, DownloadRequest(url: server.url("/headers")))
            let timeouts = try #require(sent.all.first?.timeouts)
            #expect(timeouts.total == .seconds(15))
            #expect(timeouts.connect == .seconds(10))
            #expect(timeouts.stall == .seconds(10))
        }
    }

    @Test("a configured stall timeout ends an attempt whose server goes quiet, with stalled")
    func configuredStallTimeout() async throws {
        try await withServer { server in
            let downloader = ImageDownloader(
                transport: CurlTransport(), registry: DownloadRegistry(),
                configuration: .init(timeout: .seconds(600), stallTimeout: .milliseconds(300)))
            let url = server.url("/gate/quiet?bytes=5000&first=1000")
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: url), handler: log.handler)
            let result = await log.result()
            guard case .failure(.transport(let error)) = result else {
                Issue.record("the held download ended with \(result)")
                return
            }
            #expect(error.code == .stalled)
            server.openGate("quiet")
        }
    }
}

/// The subscribers a downloader reported cancelled.
private final class CancelMonitor: DownloadEventMonitor {
    private let tokens = Locked<[SubscriptionToken]>([])

    func download(_ key: DownloadKey, subscriberDidCancel subscriber: SubscriptionToken) {
        tokens.withLock { $0.append(subscriber) }
    }

    /// The cancelled subscribers, once every event sent so far has arrived.
    func cancelled() async -> [SubscriptionToken] {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        return tokens.withLock { $0 }
    }
}

/// The requests a transport started, recorded on its thread.
private final class SentRequests: TransportEventMonitor {
    private let requests = Locked<[TransportRequest]>([])
    var all: [TransportRequest] { requests.withLock { $0 } }

    func transferDidStart(_ task: TransferTask, request: TransportRequest) {
        requests.withLock { $0.append(request) }
    }
}
