import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// WebP and AVIF through the umbrella's default composition: asked for in `Accept`,
/// decoded by the default registry.
@Suite("Manager against the loopback server: WebP and AVIF by default", .timeLimit(.minutes(1)))
struct WebPLoadTests {
    @Test("the default Accept names AVIF and WebP first, and an animated WebP loads with its frames")
    func defaultComposition() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let response = try await manager.response(for: ImageRequest(url: fixture.url("animation.webp")))
            let image = try #require(response.image)
            #expect(image.format == .webp)
            #expect(image.frames.count == 2)
            #expect(image.size == PixelSize(width: 50, height: 30))
            #expect(image.frames.map(\.duration) == [.milliseconds(80), .milliseconds(120)])
            let request = try #require(fixture.server.requests.first { $0.path == "/files/animation.webp" })
            #expect(request.header("Accept") == "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5")
        }
    }

    @Test("an AVIF loads through the default registry, turned upright by its rotation property")
    func avif() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let image = try #require(try await manager.response(for: ImageRequest(url: fixture.url("photo.avif"))).image)
            #expect(image.format == .avif)
            #expect(image.size == PixelSize(width: 40, height: 64), "stored 64x40, turned a quarter")
            #expect(image.orientation == .up)
        }
    }

    @Test("a configuration's own Accept and decoders are kept")
    func ownChoices() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager {
                $0.decoders = .standard
                $0.transport.accept = "image/jpeg"
            }
            let error = await #expect(throws: ImageLoadError.self) {
                try await manager.response(for: ImageRequest(url: fixture.url("animation.webp")))
            }
            guard case .decoding(let decoding, _, _) = error else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(decoding.code == .unsupported)
            #expect(decoding.format == .webp)
            let request = try #require(fixture.server.requests.first { $0.path == "/files/animation.webp" })
            #expect(request.header("Accept") == "image/jpeg")
        }
    }
}
