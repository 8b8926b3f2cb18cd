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
        try await expectFault(at: "/basic-auth/ann/secret") { error, pipeline, served in
            #expect(error?.transport?.code == .httpStatus)
            #expect(error?.transport?.statusCode == 401)
            #expect(served.server.requests.count == 1)
            // The user may sign in and load again: a 401 is not permanent.
            #expect(!pipeline.manager.failedURLs.contains(ImageRequest(url: served.server.url("/basic-auth/ann/secret")).dataKey))
        }
    }

    @Test("a wrong credential is offered a bounded number of times, then the 401 ends the load", arguments: ["basic", "digest"])
    func wrongCredential(scheme: String) async throws {
        var context = ImageLoadContext()
        context.credential = Credential(user: "ann", password: "wrong")
        try await expectFault(at: "/\(scheme)-auth/ann/secret", context: context) { error, _, served in
            #expect(error?.transport?.statusCode == 401, "\(String(describing: error))")
            #expect(served.server.requests.count <= 4, "\(served.server.requests.count) requests: not retried for ever")
        }
    }
}
