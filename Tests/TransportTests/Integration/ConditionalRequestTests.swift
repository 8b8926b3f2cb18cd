import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@Suite("Conditional requests and 304")
struct ConditionalRequestTests {
    @Test("validators from a first response turn the second into a 304 with no body")
    func notModified() async throws {
        let root = try TemporaryDirectory()
        try Data(repeating: 7, count: 4096).write(to: root.url.appendingPathComponent("cat.png"))
        try await withServer(.init(documentRoot: root.url)) { server in
            let transport = CurlTransport()
            let first = try await transport.data(for: TransportRequest(url: server.url("/files/cat.png")))
            #expect(first.response.statusCode == 200)
            #expect(first.response.mimeType == "image/png")
            let etag = try #require(first.response.headers["ETag"])
            let lastModified = try #require(first.response.headers["Last-Modified"])

            let byETag = try await transport.data(
                for: TransportRequest(
                    url: server.url("/files/cat.png"), validators: .init(etag: etag)))
            #expect(byETag.response.isNotModified)
            #expect(byETag.data.isEmpty)
            #expect(server.requests[1].header("If-None-Match") == etag)

            let byDate = try await transport.data(
                for: TransportRequest(
                    url: server.url("/files/cat.png"),
                    validators: .init(CachedResponseMetadata(lastModified: lastModified))))
            #expect(byDate.response.isNotModified)
            #expect(server.requests[2].header("If-Modified-Since") == lastModified)

            let stale = try await transport.data(
                for: TransportRequest(
                    url: server.url("/files/cat.png"), validators: .init(etag: "\"something-else\"")))
            #expect(stale.response.statusCode == 200)
            #expect(stale.data.count == 4096)
        }
    }
}
