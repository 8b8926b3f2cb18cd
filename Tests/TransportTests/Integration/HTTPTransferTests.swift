import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@Suite("HTTP transfers against the loopback server")
struct HTTPTransferTests {
    @Test("a GET streams the exact body, with rising progress against Content-Length")
    func streamsBody() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let recorder = StreamingRecorder()
            transport.start(TransportRequest(url: server.url("/bytes/1000000")), delegate: recorder)
            let completion = await recorder.completion()
            let response = try completion.result.get()
            let seen = recorder.snapshot
            #expect(response.statusCode == 200)
            #expect(seen.response?.expectedContentLength == 1_000_000)
            #expect(seen.body == patternBytes(1_000_000))
            #expect(seen.chunks.count > 1)
            #expect(seen.progress.map(\.received) == seen.progress.map(\.received).sorted())
            #expect(seen.progress.last == TransferProgress(received: 1_000_000, expected: 1_000_000))
            #expect(seen.completions == 1)
            // Every event on the transport's one thread, named for top -H, perf and gdb.
            #expect(seen.threads.count == 1)
            #expect(seen.completionThreadName == "webimage.curl")
        }
    }

    @Test("HEAD gets the head and no body")
    func head() async throws {
        try await withServer { server in
            let fetched = try await CurlTransport().data(for: TransportRequest(url: server.url("/bytes/5000"), method: .head))
            #expect(fetched.response.statusCode == 200)
            #expect(fetched.response.expectedContentLength == 5000)
            #expect(fetched.data.isEmpty)
            #expect(server.requests.map(\.method) == ["HEAD"])
        }
    }

    @Test("the default Accept and User-Agent go out; the request's own headers replace them")
    func defaultHeaders() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            _ = try await transport.data(for: TransportRequest(url: server.url("/headers")))
            var custom = TransportRequest(url: server.url("/headers"))
            custom.headers = ["User-Agent": "tests/1", "X-Trace": "42"]
            _ = try await transport.data(for: custom)
            let first = server.requests[0]
            let second = server.requests[1]
            #expect(first.header("Accept")?.hasPrefix("image/png,image/jpeg") == true)
            #expect(first.header("User-Agent")?.hasPrefix("swift-web-image/") == true)
            #expect(second.header("User-Agent") == "tests/1")
            #expect(second.header("X-Trace") == "42")
            #expect(first.header("Cookie") == nil)
        }
    }

    @Test("metrics: one transaction, timings in order, and a reused connection the second time")
    func metrics() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let first = try await transport.data(for: TransportRequest(url: server.url("/bytes/20000")))
            let second = try await transport.data(for: TransportRequest(url: server.url("/bytes/20000")))
            let a = try #require(first.metrics.transactions.first)
            let b = try #require(second.metrics.transactions.first)
            #expect(first.metrics.transactions.count == 1)
            #expect(a.bytesReceived == 20000)
            #expect(a.statusCode == 200 && a.httpVersion == .http1_1)
            #expect(a.remoteAddress == "127.0.0.1" && a.remotePort == server.port)
            #expect(a.connect <= a.firstByte && a.firstByte <= a.total)
            #expect(!a.reusedConnection)
            #expect(b.reusedConnection)
            #expect(server.requests[0].connectionID == server.requests[1].connectionID)
            #expect(first.metrics.totalDuration >= a.total)
        }
    }

    @Test("a status of 400 or above is an httpStatus error carrying the status and headers")
    func errorStatus() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            for code in [404, 410, 500, 503] {
                let error = await transferError(transport, TransportRequest(url: server.url("/status/\(code)?header=X-Why:testing")))
                #expect(error?.code == .httpStatus)
                #expect(error?.statusCode == code)
                #expect(error?.response?.headers["X-Why"] == "testing")
            }
            // The error bodies were read and dropped: the connection stayed usable.
            #expect(Set(server.requests.map(\.connectionID)).count == 1)
        }
    }

    @Test("compressed responses are decoded; the limit counts decoded bytes")
    func gzip() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let fetched = try await transport.data(for: TransportRequest(url: server.url("/gzip?bytes=300000")))
            #expect(fetched.response.headers["Content-Encoding"] == "gzip")
            #expect(fetched.data == patternBytes(300_000))
            #expect(server.requests[0].header("Accept-Encoding")?.contains("gzip") == true)

            var limited = TransportRequest(url: server.url("/gzip?bytes=300000"))
            limited.maximumBodySize = 100_000
            #expect(await transferError(transport, limited)?.code == .bodyTooLarge)

            var plain = TransportRequest(url: server.url("/gzip?bytes=1000"))
            plain.acceptsCompressedResponses = false
            let identity = try await transport.data(for: plain)
            #expect(identity.response.headers["Content-Encoding"] == nil)
            #expect(identity.data == patternBytes(1000))
        }
    }

    @Test("a Content-Length over the limit fails before the body is read")
    func contentLengthOverLimit() async throws {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/bytes/50000000"))
            request.maximumBodySize = 1_000_000
            let recorder = StreamingRecorder()
            CurlTransport().start(request, delegate: recorder)
            let completion = await recorder.completion()
            #expect(throws: TransportError.self) { try completion.result.get() }
            if case .failure(let error) = completion.result { #expect(error.code == .bodyTooLarge) }
            #expect(recorder.snapshot.body.isEmpty)
            #expect((completion.metrics.transactions.first?.bytesReceived ?? 0) < 1_000_000)
        }
    }

    @Test("cookies are neither stored nor sent unless the request asks")
    func cookies() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            _ = try await transport.data(for: TransportRequest(url: server.url("/cookie/set?flavour=oat")))
            let without = try await transport.data(for: TransportRequest(url: server.url("/cookie/echo")))
            #expect(!String(decoding: without.data, as: UTF8.self).contains("flavour"))

            var set = TransportRequest(url: server.url("/cookie/set?flavour=oat"))
            set.usesCookies = true
            _ = try await transport.data(for: set)
            var echo = TransportRequest(url: server.url("/cookie/echo"))
            echo.usesCookies = true
            let with = try await transport.data(for: echo)
            #expect(String(decoding: with.data, as: UTF8.self).contains("flavour=oat"))
        }
    }

    @Test("many concurrent transfers over one transport all arrive whole")
    func concurrent() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            try await withThrowingTaskGroup(of: Data.self) { group in
                for index in 0..<60 {
                    group.addTask { try await transport.data(for: TransportRequest(url: server.url("/bytes/\(10_000 + index)"))).data }
                }
                var sizes: [Int] = []
                for try await data in group {
                    #expect(data == patternBytes(data.count))
                    sizes.append(data.count)
                }
                #expect(sizes.sorted() == Array(10_000..<10_060))
            }
            // Keep-alive: never more than the per-host limit of connections.
            #expect(Set(server.requests.map(\.connectionID)).count <= 6)
        }
    }
}
