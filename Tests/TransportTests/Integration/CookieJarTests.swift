import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@Suite("Cookies: off by default, one in-memory jar per transport", .timeLimit(.minutes(1)))
struct CookieJarTests {
    @Test("a transport that uses cookies sends back what its server set; another transport, and one without cookies, send none")
    func jarPerTransport() async throws {
        try await withServer { server in
            var configuration = TransportConfiguration()
            configuration.usesCookies = true
            let withCookies = CurlTransport(configuration: configuration)
            _ = try await withCookies.data(for: TransportRequest(url: server.url("/cookie/set?flavour=oat")))
            let echoed = try await withCookies.data(for: TransportRequest(url: server.url("/cookie/echo")))
            #expect(String(decoding: echoed.data, as: UTF8.self) == "flavour=oat")
            #expect(server.requests.last?.header("Cookie") == "flavour=oat")

            // Another transport has a jar of its own, empty.
            let other = CurlTransport(configuration: configuration)
            _ = try await other.data(for: TransportRequest(url: server.url("/cookie/echo?other=1")))
            #expect(server.requests.last?.uri == "/cookie/echo?other=1")
            #expect(server.requests.last?.header("Cookie") == nil)

            // Off by default: the cookie is neither kept nor sent.
            let plain = CurlTransport()
            _ = try await plain.data(for: TransportRequest(url: server.url("/cookie/set?flavour=rye")))
            _ = try await plain.data(for: TransportRequest(url: server.url("/cookie/echo?plain=1")))
            #expect(server.requests.last?.uri == "/cookie/echo?plain=1")
            #expect(server.requests.last?.header("Cookie") == nil)
            for transport in [withCookies, other, plain] { await transport.shutdown() }
        }
    }

    @Test("a request that does not use cookies sends none, though the transfer before it on a pooled handle did")
    func requestWithoutCookiesAfterOneWith() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            var set = TransportRequest(url: server.url("/cookie/set?flavour=oat"))
            set.usesCookies = true
            _ = try await transport.data(for: set)
            _ = try await transport.data(for: TransportRequest(url: server.url("/cookie/echo?plain=1")))
            #expect(server.requests.last?.uri == "/cookie/echo?plain=1")
            #expect(server.requests.last?.header("Cookie") == nil)

            var echo = TransportRequest(url: server.url("/cookie/echo"))
            echo.usesCookies = true
            _ = try await transport.data(for: echo)
            #expect(server.requests.last?.header("Cookie") == "flavour=oat")
            await transport.shutdown()
        }
    }
}
