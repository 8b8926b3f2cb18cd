import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestSupport

@Suite("Transformers and their cache keys", .timeLimit(.minutes(1)))
struct TransformerTests {
    static let image = DecodedImage(format: .png, frames: [ImageFrame(bitmap: try! SyntheticImage.photo(width: 400, height: 200))])

    @Test("fit keeps the aspect ratio inside the box; fill cuts the centre to the box")
    func resize() throws {
        #expect(try ResizeTransformer(width: 100, height: 100, mode: .fit).transform(Self.image).size == PixelSize(width: 100, height: 50))
        #expect(
            try ResizeTransformer(width: 100, height: 100, mode: .fill).transform(Self.image).size == PixelSize(width: 100, height: 100))
        let plan = ResizeTransformer(width: 100, height: 100, mode: .fill).plan(for: Self.image.size)
        #expect(plan.region == PixelRect(x: 100, y: 0, width: 200, height: 200))
    }

    @Test("stretch gives exactly the box, each side on its own, and never lengthens a side")
    func stretch() throws {
        let squashed = try ResizeTransformer(width: 100, height: 150, mode: .stretch).transform(Self.image)
        #expect(squashed.size == PixelSize(width: 100, height: 150))
        let plan = ResizeTransformer(width: 1000, height: 50, mode: .stretch).plan(for: Self.image.size)
        #expect(plan.region == PixelRect(x: 0, y: 0, width: 400, height: 200))
        #expect(plan.target == PixelSize(width: 400, height: 50))
    }

    @Test("resizing never enlarges: a small image keeps its pixels, a fill only cuts to the aspect ratio")
    func neverEnlarges() throws {
        let fit = try ResizeTransformer(width: 1000, height: 1000).transform(Self.image)
        #expect(fit.bitmap == Self.image.bitmap)
        let fill = try ResizeTransformer(width: 1000, height: 1000, mode: .fill).transform(Self.image)
        #expect(fill.size == PixelSize(width: 200, height: 200))
    }

    @Test("crop copies exactly the rectangle's pixels; one outside the image is an error")
    func crop() throws {
        let cropped = try CropTransformer(PixelRect(x: 10, y: 20, width: 30, height: 40)).transform(Self.image)
        #expect(cropped.size == PixelSize(width: 30, height: 40))
        let source = Self.image.bitmap.packedBytes
        let result = cropped.bitmap.packedBytes
        for (y, x) in [(0, 0), (39, 29), (17, 3)] {
            let from = ((20 + y) * 400 + 10 + x) * 4
            let to = (y * 30 + x) * 4
            #expect(Array(source[from..<(from + 4)]) == Array(result[to..<(to + 4)]))
        }
        #expect(throws: ImageDecodingError.self) {
            try CropTransformer(PixelRect(x: 390, y: 0, width: 20, height: 20)).transform(Self.image)
        }
    }

    @Test("a composition applies each in turn, and its identifier names them all")
    func composition() throws {
        let chain = ComposedTransformer([
            CropTransformer(PixelRect(x: 0, y: 0, width: 200, height: 200)), ResizeTransformer(width: 50, height: 50),
        ])
        #expect(try chain.transform(Self.image).size == PixelSize(width: 50, height: 50))
        #expect(chain.identifier == "crop(200x200+0+0)|resize(fit,50x50)")
    }

    @Test("every transformer and decode size makes its own image key; all share the URL's data key")
    func keys() {
        let url = URL(string: "https://example.com/a.jpg")!
        let plain = ImageRequest(url: url)
        let fit = ImageRequest(url: url, context: .init(transformers: [ResizeTransformer(width: 50, height: 50)]))
        let fill = ImageRequest(url: url, context: .init(transformers: [ResizeTransformer(width: 50, height: 50, mode: .fill)]))
        let thumbnail = ImageRequest(url: url, context: .init(thumbnailPixelSize: 64))
        let first = ImageRequest(url: url, options: [.firstFrameOnly, .highPriority])
        #expect(plain.imageKey == plain.dataKey)
        #expect(Set([plain, fit, fill, thumbnail, first].map(\.imageKey)).count == 5)
        #expect(Set([plain, fit, fill, thumbnail, first].map(\.dataKey)) == [CacheKey("https://example.com/a.jpg")])
        #expect(
            ImageRequest(url: url, options: [.highPriority, .refreshCached]).imageKey == plain.imageKey,
            "priority and refresh do not change the image")
    }

    @Test("through the manager: a transformed image is cached under its own key, beside the original, from one download")
    func throughTheManager() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager()
        let url = fixture.url("photo.jpg")
        let square = ImageRequest(url: url, context: .init(transformers: [ResizeTransformer(width: 100, height: 100, mode: .fill)]))
        let square100 = try await manager.image(for: square)
        #expect(square100.size == PixelSize(width: 100, height: 100))
        let original = try await manager.image(for: url)
        #expect(original.size == PixelSize(width: 320, height: 240))
        #expect(manager.cachedImage(for: square)?.size == PixelSize(width: 100, height: 100))
        let again = try await manager.response(for: square)
        #expect(again.source == .memory)
        #expect(fixture.downloader.downloads.count == 1, "the original came from the bytes waiting for the disk")

        let impossible = ImageRequest(
            url: url, context: .init(transformers: [CropTransformer(PixelRect(x: 0, y: 0, width: 999, height: 10))]))
        let result = await outcome { () async throws(ImageLoadError) in try await manager.image(for: impossible) }
        guard case .transform? = result.error else {
            Issue.record("expected a transform error, got \(result)")
            return
        }
        #expect(!manager.failedURLs.contains(impossible.dataKey), "the URL is fine; the request was not")
    }

    @Test("a key filter maps URLs to one resource key")
    func keyFilter() async throws {
        let fixture = ScriptedFixture.serving()
        let manager = fixture.manager {
            $0.cacheKeyFilter = { url in url.absoluteString.components(separatedBy: "?")[0] }
        }
        _ = try await manager.image(for: URL(string: fixture.url("badge.png").absoluteString + "?signature=1")!)
        let second = try await manager.response(
            for: ImageRequest(url: URL(string: fixture.url("badge.png").absoluteString + "?signature=2")!))
        #expect(second.source == .memory)
        #expect(fixture.downloader.downloads.count == 1)
    }
}
