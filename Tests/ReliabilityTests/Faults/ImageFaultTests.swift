import Foundation
import Testing
import WebImage
import WebImageTestServer
import WebImageTestSupport

/// Hostile and damaged image bodies through the whole pipeline: a decoding error that
/// says what is wrong, found from the header before any pixel memory is taken, and
/// nothing cached.
@Suite("Faults: hostile and damaged images")
struct ImageFaultTests {
    @Test(
        "a decompression bomb is tooLarge, refused from its header, in every format",
        arguments: ["bomb.png", "bomb.jpg", "bomb.gif", "bomb.webp", "bomb.avif"])
    func decompressionBomb(name: String) async throws {
        try await expectFault(at: "/files/\(name)") { error, pipeline, served in
            // 65,500 x 65,500 or more as RGBA is over 16 GB: only a refusal from the
            // header can end in tooLarge (an attempt would end in outOfMemory or never).
            // The decoder tests time that refusal; the load run bounds the memory.
            #expect(error?.decoding?.code == .tooLarge, "\(String(describing: error))")
            // The URL itself is at fault: not fetched again for a while.
            #expect(pipeline.manager.failedURLs.contains(ImageRequest(url: served.url(name)).dataKey))
        }
    }

    @Test(
        "a decompression bomb is refused even when the load asks for a thumbnail",
        arguments: ["bomb.png", "bomb.gif", "bomb.webp", "bomb.avif"])
    func bombThumbnail(name: String) async throws {
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
            var context = ImageLoadContext()
            context.thumbnailPixelSize = 64
            let request = ImageRequest(url: served.url(name), context: context)
            let error = await pipeline.failure(request)
            #expect(error?.decoding?.code == .tooLarge, "\(String(describing: error))")
            try await pipeline.expectNothingLeft(after: request)
        }
    }

    @Test("a corrupt body is a decoding error; the URL waits in the failed-URL set; the next good image loads")
    func corruptBody() async throws {
        try await withServedImages { served in
            let pipeline = InspectablePipeline(cacheDirectory: served.cacheDirectory)
            let request = ImageRequest(url: served.url("corrupt.jpg"))
            let error = await pipeline.failure(request)
            let code = error?.decoding?.code
            #expect(code == .corrupt || code == .truncated, "\(String(describing: error))")
            #expect(await pipeline.failure(request).map { if case .failedRecently = $0 { true } else { false } } == true)
            #expect(served.hits("/files/corrupt.jpg") == 1)
            try await pipeline.expectNothingLeft(after: request)
            // The pipeline is unharmed.
            let image = try await pipeline.manager.image(for: served.url("photo.jpg"))
            #expect(image.width == 160)
        }
    }

    @Test("a body that is no image at all is unknownFormat")
    func notAnImage() async throws {
        try await expectFault(at: "/bytes/3000") { error, _, _ in
            #expect(error?.decoding?.code == .unknownFormat)
        }
    }
}
