import Foundation
import Testing
import WebImage

@testable import WebImageProxy

@Suite("Proxy: variant keys")
struct VariantKeyTests {
    static let source = "https%3A%2F%2Fexample.com%2Fcat.jpg"

    static func proxy(_ change: (inout ImageProxy.Configuration) -> Void = { _ in }) throws -> ImageProxy {
        var configuration = ImageProxy.Configuration()
        configuration.presets = [try ProxyPreset(parsing: "thumb=rs:fill:300:200/g:sm")]
        change(&configuration)
        return ImageProxy(configuration: configuration)
    }

    /// The key of `/unsafe/{options}/plain/{source}` asked with `accept`.
    static func key(
        _ options: String, source: String = source, accept: String? = nil, proxy: ImageProxy? = nil
    ) throws -> VariantKey {
        let proxy = try proxy ?? Self.proxy()
        let request = ProxyRequest(path: "/unsafe/\(options)/plain/\(source)", accept: accept)
        let output = try proxy.outputKey(for: request, path: try ProxyPath(request.path))
        return VariantKey(
            source: proxy.sourceKey(of: try ProxyPath(request.path).source), output: output, configuration: proxy.configuration)
    }

    @Test(
        "two spellings of one request give one key",
        arguments: [
            ("rs:fill:300:200", "resize:fill:300:200"),
            ("w:300/h:200", "s:300:200"),
            ("rs:fit:300:200", "size:300:200/rt:fit"),
            ("pr:thumb", "rs:fill:300:200/g:sm"),
            ("pr:thumb", "g:sm/rs:fill:300:200"),
            ("rs:fill:300:200", "rs:fill:300:200/cb:abc"),
            ("rs:fill:300:200", "rs:fill:300:200/fn:kitten/att:1"),
            ("rs:fill:300:200", "rs:fill:300:200/exp:4102444800"),
            ("w:300", "w:300/dpr:1/z:1"),
            ("w:300", "w:300/fq:avif:63"),
            ("w:300/q:70", "w:300/quality:70"),
            ("w:300/bg:ff0000", "w:300/bg:255:0:0"),
            ("w:300/t:10", "w:300/trim:10:::0"),
            // The server keeps one frame: a URL allowing more asks for the same output.
            ("w:300", "w:300/maf:20"),
        ])
    func sameKey(_ first: String, _ second: String) throws {
        let (a, b) = (try Self.key(first), try Self.key(second))
        #expect(a == b, "\(a.canonical)\n\(b.canonical)")
        #expect(a.cacheKey == b.cacheKey)
    }

    @Test(
        "any change that changes the output's bytes gives another key",
        arguments: [
            "rs:fill:301:200", "rs:fill:300:201", "rs:fit:300:200", "rs:fill:300:200/g:no", "rs:fill:300:200/q:79",
            "rs:fill:300:200/fq:webp:50", "rs:fill:300:200/f:png", "rs:fill:300:200/dpr:2", "rs:fill:300:200/bl:1",
            "rs:fill:300:200/sh:0.5", "rs:fill:300:200/pix:4", "rs:fill:300:200/rot:90", "rs:fill:300:200/fl:1:0",
            "rs:fill:300:200/ar:0", "rs:fill:300:200/c:100:100", "rs:fill:300:200/pd:4", "rs:fill:300:200/bg:000000",
            "rs:fill:300:200/el:1", "rs:fill:300:200/ex:1", "rs:fill:300:200/mw:400", "rs:fill:300:200/z:1.5",
            "rs:fill:300:200/scp:0", "rs:fill:300:200/mb:10000", "rs:fill:300:200/raw:1", "rs:fill:300:200/skp:jpeg",
            "rs:fill:300:200/mrd:100", "rs:fill:300:200/t:10", "rs:fill:300:200/t:10::1", "rs:fill:300:200/f:gif",
        ])
    func otherKey(_ changed: String) throws {
        let base = try Self.key("rs:fill:300:200")
        let other = try Self.key(changed)
        #expect(base != other, "\(changed): \(other.canonical)")
        #expect(base.cacheKey != other.cacheKey)
    }

    @Test("another source, another negotiated format or another proxy default quality gives another key")
    func otherContext() throws {
        let base = try Self.key("w:300")
        #expect(try Self.key("w:300", source: "https%3A%2F%2Fexample.com%2Fdog.jpg") != base)
        #expect(try Self.key("w:300", accept: "image/webp") != base)
        #expect(try Self.key("w:300", accept: "image/webp") == Self.key("w:300", accept: "image/webp,image/*"))
        #expect(try Self.key("w:300", proxy: Self.proxy { $0.quality.jpeg = 70 }) != base)
        #expect(try Self.key("w:300", proxy: Self.proxy { $0.keepsColorProfile = true }) != base)
        // A server that keeps animations makes other outputs of an animated source.
        #expect(try Self.key("w:300", proxy: Self.proxy { $0.limits.maxAnimationFrames = 50 }) != base)
        // Without WebP preferred, the answer no longer varies by Accept.
        #expect(try Self.key("w:300", proxy: Self.proxy { $0.prefersWebP = false }) != base)
        // Preferring AVIF too changes nothing for a client that takes neither.
        #expect(try Self.key("w:300", proxy: Self.proxy { $0.prefersAVIF = true }) == base)
        // A URL naming its format gets it whatever the client accepts: one key.
        #expect(try Self.key("w:300/f:png", accept: "image/webp") == Self.key("w:300/f:png"))
    }

    @Test("the source in the key is the sources' manager's cache key: two URLs it maps together meet")
    func keyMapping() throws {
        var web = WebImageConfiguration(cacheDirectory: nil)
        web.manager.cacheKeyFilter = { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.query = nil
            return components.string!
        }
        let sources = ImageManager(configuration: web)
        let proxy = ImageProxy(configuration: ImageProxy.Configuration(), sources: sources)
        let a = try Self.key("w:300", source: "https%3A%2F%2Fexample.com%2Fcat.jpg%3Fsession%3D1", proxy: proxy)
        let b = try Self.key("w:300", source: "https%3A%2F%2Fexample.com%2Fcat.jpg%3Fsession%3D2", proxy: proxy)
        #expect(a == b)
        #expect(a.source == "https://example.com/cat.jpg")
        #expect(try Self.key("w:300", source: "https%3A%2F%2Fexample.com%2Fcat.jpg%3Fsession%3D1") != a)
    }

    @Test("every stored option of ProcessingOptions is either in the key or named as left out")
    func everyOptionDecided() {
        let labels = Set(Mirror(reflecting: ProcessingOptions()).children.compactMap(\.label))
        #expect(labels == VariantKey.includedOptions.union(VariantKey.excludedOptions))
        #expect(VariantKey.includedOptions.isDisjoint(with: VariantKey.excludedOptions))
    }

    @Test("the key is the canonical text's SHA-256, and the text starts with the rendering version and the source")
    func keyForm() throws {
        let key = try Self.key("w:300")
        #expect(key.canonical.hasPrefix("v\(VariantKey.renderingVersion)|src=https://example.com/cat.jpg|"))
        #expect(key.cacheKey.string.hasPrefix("variant/"))
        #expect(key.cacheKey.string.count == "variant/".count + 64)
    }
}
