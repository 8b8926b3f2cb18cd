import Foundation
import Testing

@testable import WebImageProxy

@Suite("Source URLs checked by their text")
struct SourceURLSyntaxTests {
    /// Every source the text check vouches for is one `URL` itself finds a scheme and a
    /// host in, once it parses; the rest are left to `URL`.
    @Test(
        "a plain http(s) URL with a host is vouched for, and URL agrees",
        arguments: [
            "http://example.com", "https://example.com/a.jpg", "HTTPS://EXAMPLE.COM/A.JPG", "http://a-b.example.com:8080/x?y#z",
            "http://127.0.0.1/a.png", "https://example.com?x", "https://example.com#f", "http://x/caf%C3%A9 é.jpg",
        ])
    func vouched(source: String) throws {
        #expect(SourceURLSyntax.hasSchemeAndHost(source))
        let url = try #require(URL(string: source))
        #expect(url.scheme?.isEmpty == false)
        #expect(url.host != nil)
    }

    @Test(
        "anything less plain is left to URL",
        arguments: [
            "", "http", "http:", "http:/", "http://", "https:///a.jpg", "http://:80/", "http://example.com:/a", "http://.example.com/",
            "http://-x/", "http://user@example.com/", "http://[::1]/", "http://ex%41mple.com/", "http://exämple.com/", "ftp://example.com/",
            "data:image/png;base64,AAAA", "mailto:a@b.c", "http://example.com:8o/", "httpx://example.com/", "//example.com/a.jpg",
        ])
    func leftToURL(source: String) {
        #expect(!SourceURLSyntax.hasSchemeAndHost(source))
    }
}
