import Foundation
import Testing

@testable import WebImageTransport

@Suite("Origin keys: scheme, host and port, as the loop queues and remembers them")
struct OriginKeyTests {
    private func key(_ text: String) throws -> String {
        let url = try #require(URL(string: text))
        return OriginKey.make(url, scheme: url.scheme?.lowercased() ?? "")
    }

    @Test("the default port is filled in; host and scheme are lowercased")
    func defaults() throws {
        #expect(try key("http://Example.COM/a.png") == "http://example.com:80")
        #expect(try key("HTTPS://example.com") == "https://example.com:443")
        #expect(try key("http://example.com:/a") == "http://example.com:80")
    }

    @Test("an explicit port, credentials, query and fragment")
    func parts() throws {
        #expect(try key("https://example.com:8443/x?y=1#z") == "https://example.com:8443")
        #expect(try key("http://ann:secret@images.example.com:81/") == "http://images.example.com:81")
        #expect(try key("http://a@b@example.com/") == "http://example.com:80")
        #expect(try key("http://example.com?q=1") == "http://example.com:80")
        #expect(try key("http://example.com#top") == "http://example.com:80")
        #expect(try key("http://127.0.0.1:8080/bytes/10") == "http://127.0.0.1:8080")
    }

    @Test("IPv6 literals keep their brackets; the port follows them")
    func ipv6() throws {
        #expect(try key("http://[::1]:8080/a") == "http://[::1]:8080")
        #expect(try key("https://[FE80::1]/") == "https://[fe80::1]:443")
    }

    @Test("the same origin written two ways gives one key; another port or scheme another")
    func sameAndDifferent() throws {
        #expect(try key("http://example.com/a") == key("http://EXAMPLE.com:80/b?c"))
        #expect(try key("http://example.com/") != key("http://example.com:8080/"))
        #expect(try key("http://example.com/") != key("https://example.com/"))
    }

    @Test("it agrees with Foundation's host and port on every URL the tests use")
    func agreesWithFoundation() throws {
        for text in ["http://127.0.0.1:5000/redirect/3", "https://localhost:4443/x", "http://user@host.example:81/", "https://example.com"]
        {
            let url = try #require(URL(string: text))
            let scheme = url.scheme!.lowercased()
            let expected = "\(scheme)://\(url.host!.lowercased()):\(url.port ?? (scheme == "https" ? 443 : 80))"
            #expect(OriginKey.make(url, scheme: scheme) == expected, "\(text)")
        }
    }
}
