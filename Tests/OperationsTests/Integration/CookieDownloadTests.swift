import Foundation
import Testing
import WebImageCallbackRegistry
import WebImageCore
import WebImageTestServer
import WebImageTestSupport
import WebImageTransport

@testable import WebImageOperations

@Suite("Downloads with handleCookies use the transport's cookie jar", .timeLimit(.minutes(1)))
struct CookieDownloadTests {
    @Test("a download with handleCookies stores the server's cookie and a later one sends it; one without sends none")
    func handleCookies() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let downloader = ImageDownloader(transport: transport, registry: DownloadRegistry())
            let set = DownloadLog()
            downloader.download(
                DownloadRequest(url: server.url("/cookie/set?flavour=oat"), options: [.handleCookies]), handler: set.handler)
            #expect(await set.result().data != nil)

            let echo = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/cookie/echo"), options: [.handleCookies]), handler: echo.handler)
            let echoed = try #require(await echo.result().data)
            #expect(String(decoding: echoed, as: UTF8.self) == "flavour=oat")

            let plain = DownloadLog()
            downloader.download(DownloadRequest(url: server.url("/cookie/echo?plain=1")), handler: plain.handler)
            #expect(await plain.result().data?.isEmpty == true)
            #expect(server.requests.last?.uri == "/cookie/echo?plain=1")
            #expect(server.requests.last?.header("Cookie") == nil)

            // A download with cookies never shares a transfer with one without.
            let url = server.url("/cookie/echo")
            #expect(
                ImageDownloader.key(for: DownloadRequest(url: url, options: [.handleCookies]))
                    != ImageDownloader.key(for: DownloadRequest(url: url)))
            await transport.shutdown()
        }
    }
}
