import Foundation
import Synchronization
import Testing
import WebImageCallbackRegistry
import WebImageCore
import WebImageOperations
import WebImageTestSupport

@Suite("ImageDownloader: coalescing, cancellation, modifiers (scripted transport)")
struct ImageDownloaderTests {
    let url = URL(string: "https://images.example/a.png")!
    let transport = ScriptedTransport()
    let registry = DownloadRegistry()

    func downloader(_ configuration: ImageDownloader.Configuration = .init()) -> ImageDownloader {
        ImageDownloader(transport: transport, registry: registry, configuration: configuration)
    }

    @Test("many requests for one URL make one transfer, and every subscriber gets its bytes")
    func coalescing() async {
        let downloader = downloader()
        let logs = (0..<5).map { _ in DownloadLog() }
        for log in logs { downloader.download(DownloadRequest(url: url), handler: log.handler) }
        #expect(transport.transfers.count == 1)
        #expect(downloader.activeDownloadCount == 1)
        transport.respond(transport.transfers[0].task, body: Data("png".utf8))
        for log in logs { #expect(await log.result().data == Data("png".utf8)) }
        #expect(registry.keyCount == 0)
        #expect(downloader.activeDownloadCount == 0)
        #expect(downloader.currentDownloadCount == 0)
    }

    @Test("requests that differ in a header never share a transfer")
    func differentHeaders() {
        let downloader = downloader()
        downloader.download(DownloadRequest(url: url, headers: ["Authorization": "Bearer a"]), handler: { _ in })
        downloader.download(DownloadRequest(url: url, headers: ["Authorization": "Bearer b"]), handler: { _ in })
        downloader.download(DownloadRequest(url: url, headers: ["Range": "bytes=0-9"]), handler: { _ in })
        #expect(transport.transfers.count == 3)
        downloader.cancelAll()
    }

    @Test("cancelling one subscriber leaves the others their transfer; the last one leaving stops it")
    func cancellation() async {
        let downloader = downloader()
        let leaving = DownloadLog()
        let staying = DownloadLog()
        let token = downloader.download(DownloadRequest(url: url), handler: leaving.handler)
        let other = downloader.download(DownloadRequest(url: url), handler: staying.handler)
        token.cancel()
        #expect(await leaving.result().error?.isCancelled == true)
        #expect(transport.cancelledCount == 0)
        other.cancel()
        #expect(await staying.result().error?.isCancelled == true)
        #expect(transport.cancelledCount == 1, "the transfer stopped with its last subscriber")
        #expect(registry.keyCount == 0)
        #expect(downloader.activeDownloadCount == 0)
        #expect(downloader.currentDownloadCount == 0, "the slot is free again")
    }

    @Test("a subscriber that cancels from tokenReady stops the download before it starts, and the downloader forgets it")
    func cancelFromTokenReady() async {
        let downloader = downloader()
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), delivery: .immediate, tokenReady: { $0.cancel() }, handler: log.handler)
        #expect(await log.result().error?.isCancelled == true)
        #expect(transport.transfers.isEmpty)
        #expect(downloader.activeDownloadCount == 0, "no stopped operation is left behind")
        #expect(registry.keyCount == 0)
        // The next download of the resource starts afresh.
        let next = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: next.handler)
        #expect(transport.transfers.count == 1)
        transport.respond(transport.transfers[0].task, body: Data("png".utf8))
        #expect(await next.result().data == Data("png".utf8))
    }

    @Test("a cancelled waiting download never reaches the transport")
    func cancelWaiting() async {
        let downloader = downloader(.init(maximumConcurrentDownloads: 1))
        downloader.download(DownloadRequest(url: url), handler: { _ in })
        let waiting = DownloadLog()
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/b.png")!), handler: waiting.handler).cancel()
        #expect(await waiting.result().error?.isCancelled == true)
        transport.respond(transport.transfers[0].task, body: Data())
        #expect(transport.transfers.count == 1)
        #expect(downloader.queue.pendingCount == 0)
    }

    @Test("a joiner with a higher priority raises the waiting download")
    func priorityRaise() {
        let downloader = downloader(.init(maximumConcurrentDownloads: 1))
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/busy.png")!), handler: { _ in })
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/normal.png")!), handler: { _ in })
        downloader.download(DownloadRequest(url: url, options: [.lowPriority]), handler: { _ in })
        downloader.download(DownloadRequest(url: url, priority: .veryHigh), handler: { _ in })
        transport.respond(transport.transfers[0].task, body: Data())
        #expect(transport.transfers.map(\.request.url.lastPathComponent) == ["busy.png", "a.png"])
        downloader.cancelAll()
    }

    @Test("cancel all: every subscriber gets cancelled, nothing is left")
    func cancelAll() async {
        let downloader = downloader(.init(maximumConcurrentDownloads: 2))
        let logs = (0..<6).map { _ in DownloadLog() }
        for (i, log) in logs.enumerated() {
            downloader.download(DownloadRequest(url: URL(string: "https://images.example/\(i % 4).png")!), handler: log.handler)
        }
        downloader.cancelAll()
        for log in logs { #expect(await log.result().error?.isCancelled == true) }
        #expect(registry.keyCount == 0)
        #expect(downloader.activeDownloadCount == 0)
        #expect(downloader.queue.pendingCount == 0)
        #expect(downloader.currentDownloadCount == 0)
    }

    @Test("default headers go with every request; the request's own win")
    func defaultHeaders() {
        let downloader = downloader(.init(defaultHeaders: ["X-App": "demo", "Accept": "image/*"]))
        downloader.download(DownloadRequest(url: url, headers: ["accept": "image/png"]), handler: { _ in })
        let sent = transport.transfers[0].request.headers
        #expect(sent["X-App"] == "demo")
        #expect(sent.values(for: "Accept") == ["image/png"])
        downloader.cancelAll()
    }

    @Test("the downloader's choices reach the transport request")
    func requestShape() {
        let downloader = downloader(.init(timeout: .seconds(3), maximumBodySize: 1000))
        let credential = Credential(user: "ann", password: "secret")
        downloader.download(
            DownloadRequest(
                url: url, options: [.revalidate, .allowInvalidCertificates], credential: credential, validators: .init(etag: "\"e\"")),
            handler: { _ in })
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/b.png")!, timeout: .seconds(1)), handler: { _ in })
        let first = transport.transfers[0].request
        let second = transport.transfers[1].request
        #expect(first.timeouts.total == .seconds(3))
        #expect(first.maximumBodySize == 1000)
        #expect(first.allowsInvalidCertificates)
        #expect(first.credential == credential)
        #expect(first.validators?.etag == "\"e\"")
        #expect(second.timeouts.total == .seconds(1))
        #expect(!second.allowsInvalidCertificates, "invalid certificates only when asked")
        #expect(second.validators == nil)
        downloader.cancelAll()
    }

    @Test("an async request modifier may change the request before it is sent")
    func requestModifierChanges() async {
        let downloader = downloader(
            .init(requestModifier: { request in
                await Task.yield()  // it suspends, as a token refresh would
                var signed = request
                signed.url = URL(string: request.url.absoluteString + "?sig=abc")!
                return signed
            }))
        let log = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: log.handler)
        await transport.waitForTransfers(1)
        #expect(transport.transfers[0].request.url.query == "sig=abc")
        transport.respond(transport.transfers[0].task, body: Data("ok".utf8))
        #expect(await log.result().data == Data("ok".utf8))
    }

    @Test("a request modifier that throws or returns nil rejects the request: nothing is sent")
    func requestModifierRejects() async {
        struct Expired: Error {}
        for modifier: RequestModifier in [{ _ in throw Expired() }, { _ in nil }] {
            let transport = ScriptedTransport()
            let downloader = ImageDownloader(transport: transport, registry: registry, configuration: .init(requestModifier: modifier))
            let log = DownloadLog()
            downloader.download(DownloadRequest(url: url), handler: log.handler)
            guard case .requestRejected = await log.result().error else {
                Issue.record("expected requestRejected, got \(await log.result())")
                continue
            }
            #expect(transport.transfers.isEmpty)
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test("a response modifier can refuse a body that is not an image")
    func responseModifier() async {
        let downloader = downloader(.init(responseModifier: ResponseModifiers.requireImageContentType))
        let html = DownloadLog()
        let png = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: html.handler)
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/b.png")!), handler: png.handler)
        transport.respond(transport.transfers[0].task, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        transport.respond(transport.transfers[1].task, headers: ["Content-Type": "image/png"], body: Data("png".utf8))
        guard case .responseRejected(let reason, let response) = await html.result().error else {
            Issue.record("expected responseRejected")
            return
        }
        #expect(reason.contains("text/html"))
        #expect(response.statusCode == 200)
        #expect(await png.result().data == Data("png".utf8))
    }

    @Test("HTTP errors and transport failures arrive typed")
    func typedFailures() async {
        let downloader = downloader()
        let notFound = DownloadLog()
        let refused = DownloadLog()
        downloader.download(DownloadRequest(url: url), handler: notFound.handler)
        downloader.download(DownloadRequest(url: URL(string: "https://images.example/b.png")!), handler: refused.handler)
        transport.respond(transport.transfers[0].task, status: 404, body: Data())
        transport.fail(transport.transfers[1].task, .connectionRefused)
        #expect(await notFound.result().error?.statusCode == 404)
        #expect(await refused.result().error?.transportCode == .connectionRefused)
    }

    @Test("the async form returns the bytes, and cancelling its task cancels the subscriber")
    func asyncForm() async throws {
        let downloader = downloader()
        let fetch = Task { try await downloader.download(DownloadRequest(url: url)) }
        await transport.waitForTransfers(1)
        transport.respond(transport.transfers[0].task, body: Data("bytes".utf8))
        #expect(try await fetch.value.data == Data("bytes".utf8))

        let cancelled = Task { try await downloader.download(DownloadRequest(url: URL(string: "https://images.example/slow.png")!)) }
        await transport.waitForTransfers(2)
        cancelled.cancel()
        let result = await cancelled.result
        #expect((try? result.get()) == nil)
        if case .failure(let error as DownloadError) = result {
            #expect(error.isCancelled)
        } else {
            Issue.record("expected a DownloadError")
        }
        #expect(transport.cancelledCount == 1)
    }
}
