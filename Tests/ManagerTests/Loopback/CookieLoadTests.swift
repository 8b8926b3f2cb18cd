import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

@Suite("Manager: cookies per manager and per load, off by default", .timeLimit(.minutes(1)))
struct CookieLoadTests {
    @Test("a manager that handles cookies sends the cookie its server set with its next download")
    func perManager() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager { $0.manager.handlesCookies = true }
            // Not an image: the load fails, and the cookie is kept all the same.
            _ = try? await manager.response(for: ImageRequest(url: fixture.server.url("/cookie/set?flavour=oat")))
            _ = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg")))
            let fetched = fixture.server.requests.last { $0.path == "/files/photo.jpg" }
            #expect(fetched?.header("Cookie") == "flavour=oat")
            await manager.shutdown()
        }
    }

    @Test("by default no load sends cookies; a load with handleCookies uses the jar")
    func perLoad() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            _ = try? await manager.response(
                for: ImageRequest(url: fixture.server.url("/cookie/set?flavour=oat"), options: [.handleCookies]))
            _ = try await manager.response(for: ImageRequest(url: fixture.url("photo.jpg")))
            _ = try await manager.response(for: ImageRequest(url: fixture.url("badge.png"), options: [.handleCookies]))
            let plain = fixture.server.requests.last { $0.path == "/files/photo.jpg" }
            let withCookies = fixture.server.requests.last { $0.path == "/files/badge.png" }
            #expect(plain != nil)
            #expect(plain?.header("Cookie") == nil)
            #expect(withCookies?.header("Cookie") == "flavour=oat")
            await manager.shutdown()
        }
    }
}
