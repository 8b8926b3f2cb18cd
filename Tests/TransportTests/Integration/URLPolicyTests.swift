import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

/// The URL policy against the loopback server: a refused address is never connected to,
/// whether the URL names it, a host name resolves to it, a redirect leads to it, or a
/// kept-alive connection to it is about to be reused.
@Suite("URL policy: refused before any connection, at every hop", .timeLimit(.minutes(1)))
struct URLPolicyTransportTests {
    /// `path` on the server through the name `localhost`: a host name, not an address,
    /// so only the address it resolves to can be refused.
    func byName(_ server: LoopbackServer, _ path: String) -> URL {
        var components = URLComponents(url: server.url(path), resolvingAgainstBaseURL: false)!
        components.host = "localhost"
        return components.url!
    }

    func refusal(_ error: TransportError?) -> URLPolicyViolation.Rule? {
        guard error?.code == .refusedByPolicy else { return nil }
        return error?.policyViolation?.rule
    }

    @Test("a URL naming a loopback address is refused by publicOnly: no connection")
    func loopbackAddress() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(urlPolicy: .publicOnly))
            let error = await transferError(transport, TransportRequest(url: server.url("/bytes/10")))
            #expect(refusal(error) == .nonPublicAddress(IPAddress("127.0.0.1")!, .loopback), "\(String(describing: error))")
            #expect(server.connectionCount == 0)
        }
    }

    @Test("a host name that resolves to loopback is refused when the socket would open: no connection")
    func nameResolvingToLoopback() async throws {
        try await withServer { server in
            let transport = CurlTransport(configuration: .init(urlPolicy: .publicOnly))
            let error = await transferError(transport, TransportRequest(url: byName(server, "/bytes/10")))
            guard case .nonPublicAddress(_, .loopback) = refusal(error) else {
                Issue.record("expected a loopback refusal, got \(String(describing: error))")
                return
            }
            #expect(error?.url?.host == "localhost")
            #expect(server.connectionCount == 0)
        }
    }

    @Test("a public-looking name mapped to 127.0.0.1 (as curl's --resolve) is refused at the socket: no connection")
    func publicLookingNameResolvingToLoopback() async throws {
        try await withServer { server in
            let url = URL(string: "http://images.example.com:\(server.port)/bytes/10")!
            let mapped = ["images.example.com:\(server.port):127.0.0.1"]
            // The mapping works: without the policy, the name reaches the loopback server.
            let open = CurlTransport(configuration: .init(resolvedHosts: mapped))
            let fetched = try await open.data(for: TransportRequest(url: url))
            #expect(fetched.data.count == 10)
            server.resetRecords()

            let held = CurlTransport(configuration: .init(urlPolicy: .publicOnly, resolvedHosts: mapped))
            let error = await transferError(held, TransportRequest(url: url))
            #expect(refusal(error) == .nonPublicAddress(IPAddress("127.0.0.1")!, .loopback), "\(String(describing: error))")
            #expect(server.connectionCount == 0)
        }
    }

    @Test("a kept-alive connection to a refused address is not reused for a request under publicOnly")
    func reusedConnection() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            let first = try await transport.data(for: TransportRequest(url: byName(server, "/bytes/10")))
            #expect(first.data.count == 10)
            var held = TransportRequest(url: byName(server, "/bytes/10"))
            held.urlPolicy = .publicOnly
            let error = await transferError(transport, held)
            guard case .nonPublicAddress(_, .loopback) = refusal(error) else {
                Issue.record("expected a loopback refusal, got \(String(describing: error))")
                return
            }
            #expect(server.requests.count == 1, "the second request was never sent")
        }
    }

    @Test("a redirect to a host the policy refuses ends the transfer there: the target gets no request")
    func redirectToRefusedHost() async throws {
        try await withServer { server in
            let target = server.url("/bytes/10").absoluteString
            let start = byName(server, "/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            for policy in [URLPolicy(allowedHosts: ["localhost"]), URLPolicy(deniedHosts: ["127.0.0.1"])] {
                server.resetRecords()
                let transport = CurlTransport(configuration: .init(urlPolicy: policy))
                let error = await transferError(transport, TransportRequest(url: start))
                #expect(error?.code == .refusedByPolicy, "\(String(describing: error))")
                #expect(error?.url?.host == "127.0.0.1", "the error names the refused hop")
                #expect(error?.response?.statusCode == 302, "and keeps the redirect that led there")
                #expect(server.requests.map(\.path) == ["/redirect-to"])
            }
        }
    }

    @Test("by default file: and data: URLs are refused, before any I/O")
    func localSchemesByDefault() async throws {
        let transport = CurlTransport()
        for text in ["file:///etc/hostname", "data:,hello"] {
            let error = await transferError(transport, TransportRequest(url: URL(string: text)!))
            #expect(error?.code == .refusedByPolicy, "\(text)")
            #expect(error?.policyViolation?.rule == .schemeNotAllowed(String(text.prefix { $0 != ":" })))
        }
        var allowed = TransportRequest(url: URL(string: "data:,hello")!)
        allowed.urlPolicy = .unrestricted
        #expect(try await transport.data(for: allowed).data == Data("hello".utf8))
    }

    @Test("a request's own policy replaces the transport's, both ways")
    func requestPolicyReplaces() async throws {
        try await withServer { server in
            let strict = CurlTransport(configuration: .init(urlPolicy: .publicOnly))
            var open = TransportRequest(url: server.url("/bytes/10"))
            open.urlPolicy = .standard
            let fetched = try await strict.data(for: open)
            #expect(fetched.data.count == 10)
        }
    }
}
