import Foundation
import Testing
import WebImage

@testable import WebImageManager

/// A transformer whose identifier and version a test chooses.
private struct Named: ImageTransforming {
    let identifier: String
    var version = 1
    func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage { image }
}

private let url = URL(string: "https://images.example/photos/a.jpg?sig=1")!

private func key(
    _ options: ImageLoadOptions = [], size: Int? = 256, transformers: [any ImageTransforming] = [], encoder: String = "png",
    url: URL = url, headers: HTTPHeaderFields = [:]
) -> ImageVariantKey? {
    let context = ImageLoadContext(thumbnailPixelSize: size, transformers: transformers, headers: headers)
    return ImageVariantKey(request: ImageRequest(url: url, options: options, context: context), encoderIdentifier: encoder)
}

@Suite("Variant keys: one key per result's pixels, whatever the spelling")
struct ImageVariantKeyTests {
    // MARK: Same pixels, same key

    @Test("the same request made twice gives the same key, and its source is the request's data key")
    func sameRequestSameKey() throws {
        let first = try #require(key())
        #expect(first == key())
        #expect(first.source == CacheKey(url.absoluteString))
    }

    @Test(
        "options that change no pixel leave the key alone: priority, cache options, retries, frame buffering",
        arguments: [
            [.highPriority], [.lowPriority], [.retryFailed], [.waitForCacheStore], [.refreshCached], [.progressiveLoad],
            [.allFrames], [.memoryCacheOnly, .handleCookies],
        ] as [ImageLoadOptions])
    func behaviourOptionsLeaveTheKey(options: ImageLoadOptions) {
        #expect(key(options) == key())
    }

    @Test("a thumbnail size with scaleDownLargeImages above it is the same size: the same key")
    func scaleDownAboveTheSize() {
        #expect(key([.scaleDownLargeImages], size: 256) == key(size: 256))
        #expect(key([.scaleDownLargeImages], size: nil) == key(size: ImageLoadOptions.scaleDownPixelLimit))
    }

    @Test("headers change what is asked of the server, not the pixels made from its bytes")
    func headersLeaveTheKey() {
        #expect(key(headers: ["Accept": "image/*"]) == key())
    }

    @Test("a manager's key filter is the source: two URLs it maps together share their variants")
    func keyFilterIsTheSource() throws {
        let filter: @Sendable (URL) -> String = {
            $0.absoluteString.replacingOccurrences(of: #"\?sig=\d+"#, with: "", options: .regularExpression)
        }
        func mapped(_ url: URL) -> ImageVariantKey? {
            let request = ImageRequest(url: url, context: ImageLoadContext(thumbnailPixelSize: 256)).keyed(by: filter)
            return ImageVariantKey(request: request, encoderIdentifier: "png")
        }
        let other = URL(string: "https://images.example/photos/a.jpg?sig=2")!
        let first = try #require(mapped(url))
        #expect(first == mapped(other))
        #expect(first.source == "https://images.example/photos/a.jpg")
        #expect(key(url: url) != key(url: other), "without the filter the two URLs are two sources")
    }

    // MARK: Other pixels, another key

    @Test("every pixel-changing input gives another key")
    func pixelChangingInputs() {
        let base = key()
        let changed: [(String, ImageVariantKey?)] = [
            ("thumbnail size", key(size: 128)),
            ("first frame only", key([.firstFrameOnly])),
            ("a transformer", key(transformers: [Named(identifier: "blur(2)")])),
            ("the source", key(url: URL(string: "https://images.example/photos/b.jpg")!)),
            ("the encoder", key(encoder: "webp-lossless")),
        ]
        for (what, other) in changed { #expect(other != base, "\(what)") }
    }

    @Test("a transformer's parameters, its version and the chain's order each give another key")
    func transformChain() {
        let a = Named(identifier: "crop(0,0,10,10)")
        let b = Named(identifier: "blur(2)")
        #expect(key(transformers: [a, b]) != key(transformers: [b, a]))
        #expect(key(transformers: [a]) != key(transformers: [Named(identifier: "crop(0,0,10,11)")]))
        #expect(key(transformers: [a]) != key(transformers: [Named(identifier: a.identifier, version: 2)]))
    }

    @Test("identifiers cannot be spelled to pass for two: one transformer named `a@1:1'b` is not two named a and b")
    func identifiersAreCounted() {
        #expect(key(transformers: [Named(identifier: "a@1:1'b")]) != key(transformers: [Named(identifier: "a"), Named(identifier: "b")]))
    }

    @Test("the built-in transformers name their parameters: two resizes to other boxes are two keys")
    func builtInTransformers() {
        #expect(
            key(transformers: [ResizeTransformer(width: 100, height: 100)])
                != key(transformers: [ResizeTransformer(width: 100, height: 100, mode: .fill)]))
        #expect(ResizeTransformer(width: 1, height: 1).version == 1)
    }

    // MARK: No variant

    @Test("a full-size, untransformed load makes no variant: its stored form is the source's bytes")
    func noVariantForTheSource() {
        #expect(key(size: nil) == nil)
        #expect(key(size: 0) == nil, "a size of 0 scales nothing")
        #expect(key(size: nil, transformers: [Named(identifier: "x")]) != nil)
        #expect(key([.firstFrameOnly], size: nil) != nil)
    }
}
