import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// `ImageManager.shared` is what most apps call first: it is a real manager over the
/// default composition, not a placeholder.
@Suite("The shared manager against the loopback server")
struct SharedManagerTests {
    @Test("ImageManager.shared loads an image from the server, then answers the same request from memory")
    func sharedManagerLoads() async throws {
        try await withFixture { fixture in
            // Unique per run, and kept off the user's disk cache.
            let url = fixture.url("photo.jpg", query: "shared=\(UUID().uuidString)")
            let request = ImageRequest(url: url, options: [.memoryCacheOnly])
            let response = try await ImageManager.shared.response(for: request)
            #expect(response.source == .network)
            #expect(response.image?.size == PixelSize(width: 320, height: 240))
            #expect(ImageManager.shared.cachedImage(for: request)?.size == PixelSize(width: 320, height: 240))
            #expect(try await ImageManager.shared.response(for: request).source == .memory)
            #expect(fixture.server.requests.count == 1)
        }
    }
}
