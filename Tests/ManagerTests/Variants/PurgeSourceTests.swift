import Foundation
import Synchronization
import Testing
@_spi(Tooling) import WebImage
import WebImageTestServer
import WebImageTestSupport

/// ``ImageManager/purge(source:)`` against the loopback server and a real disk cache
/// folder: a source's bytes and its stored variants go, another source's stay, and the
/// next load makes the image again.
@Suite("Manager: purging a source and its stored variants", .timeLimit(.minutes(1)))
struct PurgeSourceTests {
    private func thumbnail(_ url: URL, size: Int) -> ImageRequest {
        ImageRequest(url: url, options: [.waitForCacheStore], context: ImageLoadContext(thumbnailPixelSize: size))
    }

    @Test("after a purge the next thumbnail load requests the source once and decodes it once; another source keeps its variant")
    func purgeThenReRender() async throws {
        try await withFixture { fixture in
            let (photo, other) = (fixture.freshURL("photo.jpg"), fixture.freshURL("badge.png"))
            let decoders = CountingDecoders()
            let loader = fixture.variantStoringManager(decoders: decoders)
            for size in [40, 60, 100] { _ = try await loader.response(for: thumbnail(photo, size: size)) }
            _ = try await loader.response(for: thumbnail(other, size: 40))
            #expect(loader.diskCache?.count == 6, "two sources and four variants")

            let summary = await loader.purge(source: photo)
            #expect(summary == SourcePurgeSummary(variantsOnDisk: 3, variantsInSharedCache: nil))
            #expect(loader.diskCache?.count == 2, "the other source and its variant")

            let before = (jpeg: decoders.count(.jpeg), requests: fixture.freshHits("photo.jpg"))
            let again = try await loader.response(for: thumbnail(photo, size: 60))
            #expect(again.source == .network)
            #expect(!again.isStoredVariant)
            #expect(decoders.count(.jpeg) == before.jpeg + 1, "one decode of the source")
            #expect(fixture.freshHits("photo.jpg") == before.requests + 1, "one request for it")

            let restarted = fixture.variantStoringManager(decoders: CountingDecoders())
            #expect(try await restarted.response(for: thumbnail(other, size: 40)).isStoredVariant, "the other source's variant stayed")
            #expect(try await restarted.response(for: thumbnail(photo, size: 60)).isStoredVariant, "the re-rendered one is stored again")
            #expect(try await restarted.response(for: thumbnail(photo, size: 100)).source == .disk, "made from the new source bytes")
        }
    }

    @Test("variants still waiting in the write-behind are written before the purge, so none comes back after it")
    func waitingWritesDoNotComeBack() async throws {
        try await withFixture { fixture in
            let photo = fixture.freshURL("photo.jpg")
            let loader = fixture.variantStoringManager(decoders: CountingDecoders())
            _ = try await loader.response(for: ImageRequest(url: photo, context: ImageLoadContext(thumbnailPixelSize: 50)))
            #expect(await loader.purge(source: photo).variantsOnDisk == 1)
            await loader.flushPendingWrites()
            #expect(loader.diskCache?.count == 0)
        }
    }

    @Test("the callback form reports the same summary on the delivery asked for")
    func callbackForm() async throws {
        try await withFixture { fixture in
            let photo = fixture.freshURL("photo.jpg")
            let loader = fixture.variantStoringManager(decoders: CountingDecoders())
            _ = try await loader.response(for: thumbnail(photo, size: 50))
            let queue = DispatchQueue(label: "purge-callback")
            let summary = await withCheckedContinuation { (continuation: CheckedContinuation<SourcePurgeSummary, Never>) in
                loader.purge(source: photo, delivery: .queue(queue)) { summary in
                    dispatchPrecondition(condition: .onQueue(queue))
                    continuation.resume(returning: summary)
                }
            }
            #expect(summary.variantsOnDisk == 1)
            #expect(loader.diskCache?.count == 0)
        }
    }

    @Test("a source with a cache key filter is purged under its filtered key")
    func filteredKey() async throws {
        try await withFixture { fixture in
            var configuration = WebImageConfiguration(cacheDirectory: fixture.cacheDirectory)
            configuration.manager.variantStorage = VariantStorage(encoder: PNGEncoder(compression: .fast))
            // The query (a signature, say) is not part of the image's identity.
            configuration.manager.cacheKeyFilter = { url in url.absoluteString.components(separatedBy: "&sig=")[0] }
            let manager = ImageManager(configuration: configuration)
            let photo = fixture.freshURL("photo.jpg")
            let signed = URL(string: photo.absoluteString + "&sig=1")!
            _ = try await manager.response(for: thumbnail(signed, size: 50))
            #expect(await manager.purge(source: URL(string: photo.absoluteString + "&sig=2")!).variantsOnDisk == 1)
            #expect(manager.diskCache?.count == 0)
        }
    }
}
