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
            "/sig/plain/http%3A%2F%2Fexample.com%2Fa.jpg%2",
        ])
    func malformed(path: String) {
        #expect {
            try ProxyPath(path)
        } throws: { error in
            (error as? ProxyError)?.status == 400
        }
    }
}
