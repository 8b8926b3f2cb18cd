import Foundation
import Synchronization
import Testing
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageCore
@testable import WebImageOperations

@Suite("Resumable downloads on the real transport, against the loopback server")
struct ResumeIntegrationTests {
    let total = 200_000
    let after = 60_000

    @Test("a download reset mid-body resumes on its retry: the bytes are the whole file, and the server saw one Range request")
    func resumesOnRetry() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let result = try await client.result(server.url("/range/a?bytes=\(total)&first=reset&after=\(after)")).get()
            #expect(result.data == rangePattern(total))
            #expect(result.attempts == 2)
            #expect(result.response.statusCode == 200, "the 206 completes as the whole it completed")
            #expect(result.response.expectedContentLength == Int64(total))
            #expect(result.response.headers["Content-Range"] == nil)
            #expect(server.requests.count == 2)
            let ranges = server.rangeRequests
            try #require(ranges.count == 1)
            let offset = try #require(ranges[0].header("range").flatMap { Int($0.dropFirst("bytes=".count).dropLast()) })
            #expect(offset > 0 && offset <= after, "asked for the rest of what arrived")
            #expect(ranges[0].header("if-range") == "\"r0-\(total)\"")
            #expect(ranges[0].header("accept-encoding") == nil, "the rest must count bytes as the kept ones do")
            #expect(client.store.count == 0)
        }
    }

    @Test("a download that fails mid-body keeps its bytes on disk; the next download asks only for the rest")
    func resumesNextDownload() async throws {
        try await withServer { server in
            let client = try ResumingDownloader()
            let url = server.url("/range/b?bytes=\(total)&first=close&after=\(after)")
            let failed = await client.result(url)
            #expect(failed.error?.transportCode == .truncatedBody)
            #expect(client.store.count == 1)
            #expect(client.store.totalSize > after / 2)
            let result = try await client.result(url).get()
            #expect(result.data == rangePattern(total))
            #expect(result.attempts == 1)
            #expect(server.rangeRequests.count == 1)
            #expect(client.store.count == 0, "taken by the download that used it")
        }
    }

    @Test("a download that times out mid-body (the server went quiet) keeps its bytes for the next one")
    func timeoutKeeps() async throws {
        try await withServer { server in
            let client = try ResumingDownloader()
            let url = server.url("/range/c?bytes=\(total)&first=stall&after=\(after)")
            let failed = await client.result(url, timeout: .milliseconds(600))
            #expect(failed.error?.transportCode == .timedOut)
            #expect(client.store.count == 1)
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.rangeRequests.count == 1)
        }
    }

    @Test("a server that ignores Range answers 200: the download starts over cleanly, the kept bytes dropped")
    func serverIgnoresRange() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let result = try await client.result(server.url("/range/d?bytes=\(total)&first=reset&after=\(after)&ranges=ignore")).get()
            #expect(result.data == rangePattern(total))
            #expect(server.requests.count == 2)
            #expect(server.rangeRequests.count == 1, "it asked once; the 200 was the whole body")
            #expect(client.store.count == 0)
        }
    }

    @Test("a changed validator: If-Range no longer matches, the 200 carries the new bytes from 0, nothing of the old kept")
    func changedValidator() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let result = try await client.result(server.url("/range/e?bytes=\(total)&first=reset&after=\(after)&validator=changing")).get()
            #expect(result.data == rangePattern(total, version: 1), "version 1 whole, no version-0 prefix")
            #expect(server.rangeRequests.count == 1)
            #expect(server.rangeRequests.first?.header("if-range") == "\"r0-\(total)\"")
            #expect(result.response.headers["ETag"] == "\"r1-\(total)\"")
        }
    }

    @Test(
        "a 206 whose Content-Range does not follow on is refused: the download asks again without a range and gets the whole",
        arguments: ["shift", "garbage", "short"])
    func badContentRange(_ answer: String) async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let result = try await client.result(server.url("/range/f?bytes=\(total)&first=reset&after=\(after)&ranges=\(answer)")).get()
            #expect(result.data == rangePattern(total))
            #expect(result.attempts == 2, "the refusal restarts the attempt; it is no retry")
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(server.rangeRequests.count == 1)
            #expect(requests.last?.header("range") == nil && requests.last?.header("if-range") == nil)
            #expect(client.store.count == 0)
        }
    }

    @Test("never resumes without a strong validator: a weak ETag or none keeps nothing", arguments: ["weak", "none"])
    func noStrongValidator(_ validator: String) async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let url = server.url("/range/g?bytes=\(total)&first=reset&after=\(after)&validator=\(validator)")
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.requests.count == 2)
            #expect(server.rangeRequests.isEmpty)
            #expect(client.store.count == 0)
        }
    }

    @Test("a Last-Modified long before Date is a strong validator (RFC 9110 §8.8.2.2): If-Range carries the date")
    func lastModifiedValidator() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(retryPolicy: oneQuickRetry)
            let url = server.url("/range/h?bytes=\(total)&first=reset&after=\(after)&validator=date")
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.rangeRequests.count == 1)
            #expect(server.rangeRequests.first?.header("if-range") == "Sun, 06 Nov 1994 08:49:37 GMT")
        }
    }

    @Test("cancel(keepingResumableData: true) keeps what arrived; the next download asks for the rest")
    func cancelKeeping() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(waitsForCancel: true)
            let url = server.url("/range/i?bytes=\(total)&first=stall&after=\(after)")
            let waiter = ProgressWaiter()
            let token = client.downloader.download(DownloadRequest(url: url), handler: waiter.handler)
            try #require(await waiter.reached(Int64(after)))
            token.cancel(keepingResumableData: true)
            await client.monitor.allFinished()
            #expect(client.store.count == 1)
            #expect(try await client.result(url).get().data == rangePattern(total))
            let ranges = server.rangeRequests
            #expect(ranges.count == 1)
            #expect(ranges.first?.header("range") == "bytes=\(after)-")
        }
    }

    @Test("a plain cancel keeps nothing")
    func plainCancel() async throws {
        try await withServer { server in
            let client = try ResumingDownloader(waitsForCancel: true)
            let url = server.url("/range/j?bytes=\(total)&first=stall&after=\(after)")
            let waiter = ProgressWaiter()
            let token = client.downloader.download(DownloadRequest(url: url), handler: waiter.handler)
            try #require(await waiter.reached(Int64(after)))
            token.cancel()
            await client.monitor.allFinished()
            #expect(client.store.count == 0)
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.rangeRequests.isEmpty)
        }
    }

    @Test("a store that cannot write (its directory is a file) costs the resume, never the download")
    func unwritableStore() async throws {
        let blocker = try TemporaryDirectory()
        let file = blocker.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        try await withServer { server in
            let client = try ResumingDownloader(storeDirectory: file)
            let url = server.url("/range/k?bytes=\(total)&first=reset&after=\(after)")
            #expect(await client.result(url).error != nil)
            #expect(client.store.count == 0)
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.rangeRequests.isEmpty)
        }
    }

    @Test(
        "a full disk while writing the partial file costs the resume, never the download",
        .enabled("needs root and a mountable tmpfs") { SmallFileSystem.isAvailable })
    func fullDisk() async throws {
        let small = try SmallFileSystem(size: "64k")
        try await withServer { server in
            let client = try ResumingDownloader(storeDirectory: small.url.appendingPathComponent("partial"))
            let url = server.url("/range/l?bytes=\(total)&first=reset&after=100000")
            #expect(await client.result(url).error != nil)
            #expect(client.store.count == 0, "100 kB do not fit in 64 KiB; nothing half-written stays")
            #expect(
                (try? FileManager.default.contentsOfDirectory(atPath: small.url.appendingPathComponent("partial").path))?.isEmpty ?? true)
            #expect(try await client.result(url).get().data == rangePattern(total))
            #expect(server.rangeRequests.isEmpty)
        }
    }
}
