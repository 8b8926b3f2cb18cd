import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@testable import WebImageConcurrency

@Suite("A redirect handler sees each hop on the wire and follows, rewrites or refuses it", .timeLimit(.minutes(2)))
struct RedirectHandlerTests {
    @Test("the transport's handler sees every hop: its request, the 3xx, where it came from and where it leads")
    func seesEveryHop() async throws {
        try await withServer { server in
            let log = HopLog(answer: .follow)
            let transport = CurlTransport(configuration: .init(redirectHandler: log.handler))
            let fetched = try await transport.data(for: TransportRequest(url: server.url("/redirect/2")))
            #expect(fetched.response.statusCode == 200)
            let hops = log.hops
            #expect(hops.map(\.url.absoluteString) == [server.url("/redirect/2"), server.url("/redirect/1")].map(\.absoluteString))
            #expect(hops.map(\.proposedURL.absoluteString) == [server.url("/redirect/1"), server.url("/redirect/0")].map(\.absoluteString))
            #expect(hops.map(\.response.statusCode) == [302, 302])
            #expect(hops.map(\.redirectsSoFar) == [0, 1])
            #expect(hops.allSatisfy { $0.request.url == server.url("/redirect/2") })
            #expect(server.requests.map(\.uri) == ["/redirect/2", "/redirect/1", "/redirect/0"])
            await transport.shutdown()
        }
    }

    @Test("a request's handler rewrites the hop to another URL with other headers, and the server sees them")
    func rewrites() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let target = server.url("/headers")
            var request = TransportRequest(url: server.url("/redirect-to?url=/bytes/10"), headers: ["X-Hop": "first"])
            request.redirectHandler = RedirectHandler { _ in .rewrite(target, headers: ["X-Hop": "rewritten"]) }
            let fetched = try await transport.data(for: request)
            #expect(fetched.response.url.absoluteString == target.absoluteString)
            #expect(server.requests.map(\.uri) == ["/redirect-to?url=/bytes/10", "/headers"])
            #expect(server.requests.first?.header("X-Hop") == "first")
            #expect(server.requests.last?.header("X-Hop") == "rewritten")
            #expect(String(decoding: fetched.data, as: UTF8.self).lowercased().contains("x-hop: rewritten"))
            await transport.shutdown()
        }
    }

    @Test("a refused hop fails the transfer with redirectRefused, the 3xx kept, its target never asked")
    func refuses() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(redirectHandler: .refuse))
            let error = await transferError(transport, TransportRequest(url: server.url("/redirect/1")))
            #expect(error?.code == .redirectRefused, "\(String(describing: error))")
            #expect(error?.response?.statusCode == 302)
            #expect(error?.url == server.url("/redirect/1"))
            #expect(server.requests.map(\.uri) == ["/redirect/1"])
            await transport.shutdown()
        }
    }

    @Test("a request's handler replaces the transport's")
    func requestHandlerWins() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(redirectHandler: .refuse))
            var request = TransportRequest(url: server.url("/redirect/1"))
            request.redirectHandler = .follow
            let fetched = try await transport.data(for: request)
            #expect(fetched.response.statusCode == 200)
            #expect(server.requests.map(\.uri) == ["/redirect/1", "/redirect/0"])
            await transport.shutdown()
        }
    }

    @Test("the handler is asked only once the redirect and URL policies have passed; a rewrite is held to them too")
    func afterThePolicies() async throws {
        try await withServer { server in
            let log = HopLog(answer: .follow)
            let policy = URLPolicy(deniedHosts: ["localhost"])
            let transport = CurlTransport(configuration: .init(urlPolicy: policy, redirectHandler: log.handler))
            // The second hop is over the limit: the redirect policy ends it, unasked.
            var limited = TransportRequest(url: server.url("/redirect/3"))
            limited.redirects.maximum = 1
            #expect(await transferError(transport, limited)?.code == .tooManyRedirects)
            #expect(log.hops.count == 1)
            // A target the URL policy refuses: unasked.
            let denied = "http://localhost:\(server.port)/bytes/10"
            let refused = await transferError(transport, TransportRequest(url: server.url("/redirect-to?url=\(denied)")))
            #expect(refused?.code == .refusedByPolicy)
            #expect(log.hops.count == 1)

            // Rewritten to a denied host, or to a scheme redirects never take: refused.
            var toDenied = TransportRequest(url: server.url("/redirect/1"))
            toDenied.redirectHandler = RedirectHandler { _ in .rewrite(URL(string: denied)!, headers: nil) }
            #expect(await transferError(transport, toDenied)?.code == .refusedByPolicy)
            var toFile = TransportRequest(url: server.url("/redirect/1"))
            toFile.redirectHandler = RedirectHandler { _ in .rewrite(URL(string: "file:///etc/hostname")!, headers: nil) }
            #expect(await transferError(transport, toFile)?.code == .badRedirect)
            #expect(!server.requests.contains { $0.uri == "/bytes/10" })
            await transport.shutdown()
        }
    }
}

/// Keeps every hop a handler was asked about, and gives each the same answer.
private final class HopLog: Sendable {
    private let asked = Locked<[RedirectHop]>([])
    private let answer: RedirectDecision
    var hops: [RedirectHop] { asked.withLock { $0 } }

    init(answer: RedirectDecision) {
        self.answer = answer
    }

    var handler: RedirectHandler {
        RedirectHandler { [self] hop in
            asked.withLock { $0.append(hop) }
            return answer
        }
    }
}
