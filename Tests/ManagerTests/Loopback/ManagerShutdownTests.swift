import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// Who stops the transport: the manager that made it, and no other.
@Suite("Manager: the transport at shutdown", .timeLimit(.minutes(1)))
struct ManagerShutdownTests {
    @Test("a manager composed by ImageManager(configuration:) shuts its own transport down once its loads have ended")
    func composedManagerStopsItsTransport() async throws {
        try await withFixture { fixture in
            let manager = fixture.manager()
            let transport = try #require((manager.downloader as? ImageDownloader)?.transport as? CurlTransport)
            _ = try await manager.image(for: fixture.url("badge.png"))
            await manager.shutdown(gracePeriod: .zero)

            let error = try await #require(throws: TransportError.self) {
                try await transport.data(for: TransportRequest(url: fixture.url("badge.png", query: "after")))
            }
            #expect(error.code == .transportClosed)
            #expect(fixture.hits("badge.png") == 1, "nothing went out once the transport was shut down")
        }
    }

    @Test("a manager given its downloader leaves the transport running for the others that share it")
    func givenPartsAreLeftRunning() async throws {
        try await withFixture { fixture in
            let transport = CurlTransport()
            let downloader = ImageDownloader(transport: transport, registry: CallbackRegistry())
            let manager = ImageManager(
                downloader: downloader, decoders: ImageDecoderRegistry.standard, registry: CallbackRegistry(),
                memoryCache: nil, diskCache: nil)
            _ = try await manager.image(for: fixture.url("badge.png"))
            await manager.shutdown(gracePeriod: .zero)

            let fetched = try await transport.data(for: TransportRequest(url: fixture.url("badge.png", query: "after")))
            #expect(fetched.response.statusCode == 200)
            await transport.shutdown()
        }
    }
}
