import Foundation
import Testing
@_spi(Tooling) import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

/// Stored variants through the manager, against the loopback server and a real disk cache
/// folder. Each "restart" is a new manager on the same folder: an empty memory cache, its
/// own decoders counting what they decode.
@Suite("Manager: stored variants survive a restart", .timeLimit(.minutes(1)))
struct StoredVariantLoadTests {
    private func thumbnail(_ url: URL, _ options: ImageLoadOptions = [.waitForCacheStore], size: Int = 100) -> ImageRequest {
        ImageRequest(url: url, options: options, context: ImageLoadContext(thumbnailPixelSize: size))
    }

    @Test("a restarted manager serves the thumbnail from its stored variant: no request, no decode of the source, the same pixels")
    func restartServesTheVariant() async throws {
        try await withFixture { fixture in
            let request = thumbnail(fixture.freshURL())
            let coldDecoders = CountingDecoders()
            let cold = try await fixture.variantStoringManager(decoders: coldDecoders).response(for: request)
            #expect(cold.source == .network)
            #expect(!cold.isStoredVariant)
            #expect(coldDecoders.count(.jpeg) == 1)

            let decoders = CountingDecoders()
            let restarted = fixture.variantStoringManager(decoders: decoders)
            let warm = try await restarted.response(for: request)
            #expect(warm.isStoredVariant)
            #expect(warm.source == .disk)
            #expect(decoders.count(.jpeg) == 0, "the source was not decoded")
            #expect(decoders.count(.png) == 1, "the variant was")
            #expect(fixture.freshHits() == 1, "no request after the restart")
            let (image, coldImage) = (try #require(warm.image), try #require(cold.image))
            #expect(image.size == PixelSize(width: 100, height: 75))
            #expect(image.bitmap == coldImage.bitmap, "PNG keeps the pixels exactly")
            #expect(image.format == .jpeg, "the image reports its source's format")
            #expect(try await restarted.response(for: request).source == .memory)
        }
    }

    @Test("variants are written behind the loads like the source's bytes: a flush makes them a restart's")
    func writtenBehind() async throws {
        try await withFixture { fixture in
            let request = thumbnail(fixture.freshURL(), [])
            let first = fixture.variantStoringManager(decoders: CountingDecoders())
            _ = try await first.response(for: request)
            await first.flushPendingWrites()
            let decoders = CountingDecoders()
            #expect(try await fixture.variantStoringManager(decoders: decoders).response(for: request).isStoredVariant)
            #expect(decoders.count(.jpeg) == 0)
        }
    }

    @Test("a cold load is answered before its variant is encoded, which runs behind the loads on the manager's executor")
    func encodedBehindTheLoad() async throws {
        try await withFixture { fixture in
            let encoder = HeldEncoder()
            let manager = fixture.variantStoringManager(decoders: CountingDecoders(), encoder: encoder)
            // Answered while any encode of its variant is still held.
            let cold = try await manager.response(for: thumbnail(fixture.freshURL(), []))
            #expect(cold.source == .network)
            #expect(encoder.finishedCount == 0)
            await encoder.started.wait { encoder.startedCount == 1 }
            #expect(encoder.threadName?.hasPrefix("webimage-work") == true, "on the manager's executor: \(encoder.threadName ?? "?")")
            encoder.release()
            await manager.flushPendingWrites()
            #expect(encoder.finishedCount == 1)
            let decoders = CountingDecoders()
            let restarted = fixture.variantStoringManager(decoders: decoders)
            #expect(try await restarted.response(for: thumbnail(fixture.freshURL())).isStoredVariant)
            #expect(decoders.count(.jpeg) == 0)
        }
    }

    @Test("each thumbnail size is its own variant; a full-size load stores none (the source's bytes are its stored form)")
    func variantsPerSize() async throws {
        try await withFixture { fixture in
            let first = fixture.variantStoringManager(decoders: CountingDecoders())
            _ = try await first.response(for: ImageRequest(url: fixture.freshURL(), options: [.waitForCacheStore]))
            #expect(first.diskCache?.count == 1)
            _ = try await first.response(for: thumbnail(fixture.freshURL(), size: 100))
            _ = try await first.response(for: thumbnail(fixture.freshURL(), size: 50))
            #expect(first.diskCache?.count == 3)
            let decoders = CountingDecoders()
            let restarted = fixture.variantStoringManager(decoders: decoders)
            let small = try await restarted.response(for: thumbnail(fixture.freshURL(), size: 50))
            #expect(small.isStoredVariant)
            #expect(small.image?.size == PixelSize(width: 50, height: 38))
            #expect(decoders.count(.jpeg) == 0)
        }
    }

    @Test("a source revalidated with a new ETag drops its variants: the next thumbnail is made from the new bytes")
    func newValidatorDropsVariants() async throws {
        try await withFixture { fixture in
            let request = thumbnail(fixture.freshURL())
            _ = try await fixture.variantStoringManager(decoders: CountingDecoders()).response(for: request)
            // The origin's picture changes: another size, so another ETag.
            let square = try JPEGFixtureEncoder(quality: 90).encode(SyntheticImage.photo(width: 200, height: 200, seed: 3))
            try square.write(to: fixture.root.appendingPathComponent("photo.jpg"))
            let refreshed = try await fixture.variantStoringManager(decoders: CountingDecoders()).response(
                for: ImageRequest(url: fixture.freshURL(), options: [.refreshCached, .waitForCacheStore]))
            #expect(refreshed.source == .network, "the conditional request got the new picture")

            let decoders = CountingDecoders()
            let after = try await fixture.variantStoringManager(decoders: decoders).response(for: request)
            #expect(!after.isStoredVariant, "the variant of the old picture was dropped")
            #expect(after.source == .disk)
            #expect(after.image?.size == PixelSize(width: 100, height: 100))
            #expect(decoders.count(.jpeg) == 1)
            let again = try await fixture.variantStoringManager(decoders: CountingDecoders()).response(for: request)
            #expect(again.isStoredVariant, "stored again, from the new bytes")
            #expect(again.image?.size == PixelSize(width: 100, height: 100))
        }
    }

    @Test("within stale-while-revalidate a restart is answered by the variant, stale, and the source is revalidated behind it")
    func staleWhileRevalidateServesTheVariant() async throws {
        try await withFixture { fixture in
            // Stale at once (Age 120 past max-age 60), usable stale for ten minutes; the
            // revalidation waits at the server until the load has been answered.
            let url = fixture.server.url("/cache/photo.jpg?cc=max-age%3D60,stale-while-revalidate%3D600&age=120&revalidation_gate=swr")
            let request = thumbnail(url)
            _ = try await fixture.variantStoringManager(decoders: CountingDecoders()).response(for: request)

            let decoders = CountingDecoders()
            let restarted = fixture.variantStoringManager(decoders: decoders)
            let stale = try await restarted.response(for: request)
            #expect(stale.isStoredVariant)
            #expect(stale.source == .stale)
            #expect(decoders.count(.jpeg) == 0, "the source was not decoded")
            await fixture.server.requestsArrived(2)
            fixture.server.openGate("swr")
            let requests = fixture.server.requests.filter { $0.path == "/cache/photo.jpg" }
            #expect(requests.count == 2, "one revalidation behind the load")
            #expect(requests.last?.headers.contains { $0.name.lowercased() == "if-none-match" } == true)
        }
    }

    @Test("a corrupt variant file is a miss: the load decodes the source, and its store heals the entry")
    func corruptVariantHeals() async throws {
        try await withFixture { fixture in
            let request = thumbnail(fixture.freshURL())
            let cold = try await fixture.variantStoringManager(decoders: CountingDecoders()).response(for: request)
            try damageVariantFile(in: fixture.cacheDirectory)

            let decoders = CountingDecoders()
            let damaged = try await fixture.variantStoringManager(decoders: decoders).response(for: request)
            #expect(!damaged.isStoredVariant)
            #expect(damaged.source == .disk)
            #expect(damaged.image?.bitmap == cold.image?.bitmap, "never the damaged pixels")
            #expect(decoders.count(.jpeg) == 1)

            let healedDecoders = CountingDecoders()
            let healed = try await fixture.variantStoringManager(decoders: healedDecoders).response(for: request)
            #expect(healed.isStoredVariant)
            #expect(healedDecoders.count(.jpeg) == 0)
            #expect(fixture.freshHits() == 1)
        }
    }

    @Test("with variant storage off (the default) a restarted manager decodes the source again")
    func offByDefault() async throws {
        try await withFixture { fixture in
            let request = thumbnail(fixture.freshURL())
            _ = try await fixture.manager().response(for: request)
            let response = try await fixture.manager().response(for: request)
            #expect(response.source == .disk)
            #expect(!response.isStoredVariant)
            #expect(fixture.manager().diskCache?.count == 1, "only the source's bytes")
        }
    }

    /// Flips one byte in the middle of the body of the one variant file under `directory`
    /// (the file keeps its size, as a damaged disk block would).
    private func damageVariantFile(in directory: URL) throws {
        let magic = Data("WIMV".utf8)
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let variants = files.filter { (try? Data(contentsOf: $0))?.range(of: magic) != nil }
        try #require(variants.count == 1)
        var bytes = try Data(contentsOf: variants[0])
        let start = try #require(bytes.range(of: magic)).lowerBound
        bytes[start + 200] ^= 0xFF
        try bytes.write(to: variants[0])
    }
}
