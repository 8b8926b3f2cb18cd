import Foundation
import Testing
import WebImageProxy

@Suite("Proxy paths")
struct ProxyPathTests {
    @Test("a path gives its signature, what is signed, the options, the source and the extension")
    func parts() throws {
        let path = try ProxyPath("/sig/rs:fit:300:200/g:sm/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")
        #expect(path.signature == "sig")
        #expect(path.signedPath == "/rs:fit:300:200/g:sm/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")
        #expect(path.optionSegments == ["rs:fit:300:200", "g:sm"])
        #expect(path.source.absoluteString == "https://example.com/a%20b.jpg?v=1")
        #expect(path.extensionFormat == .webp)
    }

    @Test("percent escapes decode in either case to UTF-8, empty segments are kept out of the options")
    func percentDecoding() throws {
        let path = try ProxyPath("/sig//q:80//plain/https%3a%2F%2Fexample.com%2Fcaf%C3%A9.jpg")
        #expect(path.optionSegments == ["q:80"])
        #expect(path.source.absoluteString == "https://example.com/caf%C3%A9.jpg")
    }

    @Test("an unencoded source is taken whole, its slashes included, and no options are needed")
    func unencoded() throws {
        let path = try ProxyPath("/unsafe/plain/http://example.com/images/cat.png")
        #expect(path.optionSegments.isEmpty)
        #expect(path.source == URL(string: "http://example.com/images/cat.png"))
        #expect(path.extensionFormat == nil)
    }

    @Test("a base64 source: URL-safe, padding optional, split anywhere by /, its extension after a dot")
    func base64() throws {
        let path = try ProxyPath("/sig/rs:fit:300:200/g:sm/aHR0cHM6Ly9leGFtcGxlLmNvbS9jYXQuanBn.webp")
        #expect(path.optionSegments == ["rs:fit:300:200", "g:sm"])
        #expect(path.source == URL(string: "https://example.com/cat.jpg"))
        #expect(path.extensionFormat == .webp)
        // "~2>?" encodes to URL-safe characters only ("-" and "_" where base64 has + and /).
        let split = try ProxyPath("/sig/q:80/aHR0cHM6Ly9leGFtcGxlLmNvbS9pbWFnZXMv/YSBiLnBuZz9zaXplPWxhcmdlJnY9MX4yPj8")
        #expect(split.optionSegments == ["q:80"])
        #expect(split.source.absoluteString == "https://example.com/images/a%20b.png?size=large&v=1~2%3E?")
        #expect(split.extensionFormat == nil)
        let padded = try ProxyPath("/sig/aHR0cHM6Ly9leGFtcGxlLmNvbS9pbWFnZXMvYSBiLnBuZz9zaXplPWxhcmdlJnY9MX4yPj8=")
        #expect(padded.source == split.source)
    }

    @Test("an unencoded source keeps its multibyte UTF-8 characters, and the last @ still names the extension")
    func multibyteSource() throws {
        let path = try ProxyPath("/sig/q:80/plain/https://example.com/café/naïve 图片.jpg@png")
        #expect(path.optionSegments == ["q:80"])
        #expect(path.source == URL(string: "https://example.com/café/naïve 图片.jpg"))
        #expect(path.extensionFormat == .png)
        let encoded = try ProxyPath("/sig/plain/https://example.com/%E5%9B%BE/%C3%A9t%C3%A9.jpg")
        #expect(encoded.source == URL(string: "https://example.com/图/été.jpg"))
    }

    @Test("a separator joined to a combining mark is part of that character, not a separator")
    func joinedSeparators() throws {
        // "/\u{301}" is one character: the signature runs to the next plain "/".
        let signature = try ProxyPath("/s/\u{301}q:80/plain/http://example.com/a.jpg")
        #expect(signature.signature == "s/\u{301}q:80")
        #expect(signature.optionSegments.isEmpty)
        #expect(throws: ProxyError.self) { try ProxyPath("/\u{301}s/plain/http://example.com/a.jpg") }
        // ":\u{301}" is no colon: that segment starts a base64 source, and is not one.
        #expect(throws: ProxyError.self) { try ProxyPath("/s/q:80/w:\u{301}1/aHR0cHM6Ly9leGFtcGxlLmNvbS9jYXQuanBn") }
        // "@\u{301}" names no extension: the source keeps it.
        let source = try ProxyPath("/s/q:80/plain/http://example.com/a.jpg@\u{301}webp")
        #expect(source.optionSegments == ["q:80"])
        #expect(source.extensionFormat == nil)
        #expect(source.source == URL(string: "http://example.com/a.jpg@\u{301}webp"))
    }

    @Test("the source decides only by its own text: a scheme in any case, a data URL, an IP literal, a port")
    func sourceForms() throws {
        #expect(try ProxyPath("/sig/plain/HTTPS://Example.COM/a.jpg").source.host?.lowercased() == "example.com")
        #expect(try ProxyPath("/sig/plain/http://127.0.0.1:8080/a.jpg").source.port == 8080)
        #expect(try ProxyPath("/sig/plain/http%3A%2F%2F%5B%3A%3A1%5D%2Fa.jpg").source.absoluteString == "http://[::1]/a.jpg")
        #expect(try ProxyPath("/sig/plain/data:image/png;base64,iVBORw0KGgo=").source.scheme == "data")
        #expect(throws: ProxyError.self) { try ProxyPath("/sig/plain/mailto:someone%40example.com") }
        #expect(throws: ProxyError.self) { try ProxyPath("/sig/plain/example.com/a.jpg") }
    }

    @Test("any number of slashes is read in one pass: empty segments are skipped, none is an option")
    func manySlashes() throws {
        let slashes = String(repeating: "/", count: 5_000)
        let path = try ProxyPath("/sig\(slashes)q:80\(slashes)plain/http://example.com/a.jpg")
        #expect(path.optionSegments == ["q:80"])
        #expect(path.source == URL(string: "http://example.com/a.jpg"))
        #expect(throws: ProxyError.self) { try ProxyPath("/sig\(slashes)") }
        #expect(throws: ProxyError.self) { try ProxyPath("/sig\(slashes)q:80\(slashes)") }
    }

    @Test("a base64 source runs to the end: a later segment with a colon is part of it, and a last plain is no plain source")
    func base64Boundaries() throws {
        #expect(throws: ProxyError.self) { try ProxyPath("/sig/q:80/aHR0cHM6Ly9leGFtcGxlLmNvbS9jYXQuanBn/w:10") }
        #expect(throws: ProxyError.self) { try ProxyPath("/sig/q:80/plain") }
        let path = try ProxyPath("/sig/q:80//aHR0cHM6Ly9leGFt/cGxlLmNvbS9jYXQuanBn.png")
        #expect(path.optionSegments == ["q:80"])
        #expect(path.source == URL(string: "https://example.com/cat.jpg"))
        #expect(path.extensionFormat == .png)
    }

    @Test(
        "a base64 source that is not one is refused",
        arguments: ["/s/rs:fit:1:1/not*base64", "/s/aHR0cHM6Ly9leGFtcGxlLmNvbS9jYXQuanBn.webp.png", "/s/rs:fit:1:1/", "/s/Zm9v"])
    func badBase64(path: String) {
        #expect(throws: ProxyError.self) { try ProxyPath(path) }
    }

    @Test(
        "an @ in the source must be encoded: the last @ names the extension",
        arguments: [
            "/s/plain/http://user@example.com/a.jpg",
            "/s/plain/http://example.com/a.jpg@tiff",
        ])
    func badExtension(path: String) {
        #expect(throws: ProxyError.self) { try ProxyPath(path) }
    }

    @Test(
        "malformed paths are refused with 400",
        arguments: [
            "", "nosignature", "/", "//plain/http://example.com/a.jpg", "/sig/rs:fit:1:1/http://example.com/a.jpg",
            "/sig/plain/", "/sig/plain/not%20a%20url", "/sig/plain/%ZZ", "/sig/plain/http%3A%2F%2Fexample.com%2F%FF.jpg",
            "/sig/plain/http%3A%2F%2Fexample.com%2Fa.jpg%2", "/sig/plain/http://example.com/%C3.jpg",
            "/sig/plain/http://example.com/%E5%9B.jpg", "/sig/plain/http://example.com/a.jpg%", "/sig/plain/%", "/sig/plain/@webp",
            "/sig/plain/http://example.com/a.jpg@", "/sig/q:80/", "/sig/q:80/plain", "/sig/a:b/c:d",
        ])
    func malformed(path: String) {
        #expect {
            try ProxyPath(path)
        } throws: { error in
            (error as? ProxyError)?.status == 400
        }
    }
}
