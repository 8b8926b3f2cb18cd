import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// Broken servers, through the whole pipeline: each fault ends the load with its own
/// typed error, and leaves no download, no subscriber and nothing cached behind.
@Suite("Faults: broken transfers end in their own error, leaving nothing behind")
struct TransferFaultTests {
    @Test("a connection reset mid-body is connectionReset, and not remembered as failed")
    func resetMidBody() async throws {
        try await expectFault(at: "/reset?bytes=200000&after=20000") { error, pipeline, served in
            #expect(error?.transport?.code == .connectionReset, "\(String(describing: error))")
            let request = ImageRequest(url: served.server.url("/reset?bytes=200000&after=20000"))
            #expect(!pipeline.manager.failedURLs.contains(request.dataKey), "a transient failure is tried again")
        }
    }

    @Test("a body shorter than its Content-Length is truncatedBody")
    func truncatedBody() async throws {
        try await expectFault(at: "/length-mismatch?declared=50000&actual=4000") { error, _, _ in
            #expect(error?.transport?.code == .truncatedBody, "\(String(describing: error))")
        }
    }

    @Test("a body that stops arriving ends at the downloader's timeout, not never")
    func stalledBody() async throws {
        try await expectFault(
            at: "/stall?bytes=100000&after=1000", configure: { $0.downloader.timeout = .seconds(2) },
            { error, _, _ in
                #expect(error?.transport?.code == .timedOut, "\(String(describing: error))")
            })
    }

    @Test("a redirect loop is tooManyRedirects")
    func redirectLoop() async throws {
        try await expectFault(at: "/redirect-loop/a") { error, _, _ in
            #expect(error?.transport?.code == .tooManyRedirects, "\(String(describing: error))")
        }
    }

    @Test(
        "a body over the size limit is bodyTooLarge, declared or growing",
        arguments: [
            "/bytes/400000",  // declared in Content-Length: refused before the body is read
            "/gzip?bytes=400000",  // compressed, so the length on the wire says nothing: stopped as it grows
        ])
    func overSizeLimit(path: String) async throws {
        try await expectFault(
            at: path, configure: { $0.downloader.maximumBodySize = 50_000 },
            { error, _, _ in
                #expect(error?.transport?.code == .bodyTooLarge, "\(String(describing: error))")
            })
    }

    @Test("a 5xx is an httpStatus error carrying the status, and is not remembered as failed")
    func serverError() async throws {
        try await expectFault(at: "/status/503") { error, pipeline, served in
            #expect(error?.transport?.code == .httpStatus)
            #expect(error?.transport?.statusCode == 503)
            #expect(!pipeline.manager.failedURLs.contains(ImageRequest(url: served.server.url("/status/503")).dataKey))
        }
    }

    @Test("nothing listening is connectionRefused")
    func refused() async throws {
        let refusing = try RefusingPort()
        let pipeline = InspectablePipeline(cacheDirectory: nil)
        let request = ImageRequest(url: URL(string: "http://127.0.0.1:\(refusing.port)/files/photo.jpg")!)
        #expect(await pipeline.failure(request)?.transport?.code == .connectionRefused)
        try await pipeline.expectNothingLeft(after: request)
    }
}
