import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// 401s through the whole pipeline: a clear status error, a bounded number of tries,
/// nothing left behind.
@Suite("Faults: authentication refused")
struct AuthenticationFaultTests {
    @Test("a 401 without credentials is an httpStatus 401, tried once, not remembered as failed")
    func noCredential() async throws {
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
            let request = ImageRequest(url: served.server.url("/basic-auth/ann/secret"))
            let error = await pipeline.failure(request)
            #expect(error?.transport?.code == .httpStatus)
            #expect(error?.transport?.statusCode == 401)
            #expect(served.server.requests.count == 1)
            // The user may sign in and load again: a 401 is not permanent.
            #expect(!pipeline.manager.failedURLs.contains(request.dataKey))
            try await pipeline.expectNothingLeft(after: request)
        }
    }

    @Test("a wrong credential is offered a bounded number of times, then the 401 ends the load", arguments: ["basic", "digest"])
    func wrongCredential(scheme: String) async throws {
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
            var context = ImageLoadContext()
            context.credential = Credential(user: "ann", password: "wrong")
            let request = ImageRequest(url: served.server.url("/\(scheme)-auth/ann/secret"), context: context)
            let error = await pipeline.failure(request)
            #expect(error?.transport?.statusCode == 401, "\(String(describing: error))")
            #expect(served.server.requests.count <= 4, "\(served.server.requests.count) requests: not retried for ever")
            try await pipeline.expectNothingLeft(after: request)
        }
    }
}
