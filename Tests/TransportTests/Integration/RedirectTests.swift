import Foundation
import Testing
import WebImageCore
import WebImageTestServer
import WebImageTransport

@Suite("Redirects, followed hop by hop")
struct RedirectTests {
    @Test("a chain is followed to its end; every hop is a transaction and a monitor event")
    func chain() async throws {
        try await withServer { server in
            let monitor = RecordingMonitor()
            let transport = CurlTransport(configuration: .init(eventMonitors: [monitor]))
            let fetched = try await transport.data(for: TransportRequest(url: server.url("/redirect/3")))
            #expect(String(decoding: fetched.data, as: UTF8.self) == "redirected")
            #expect(fetched.response.url.path == "/redirect/0")
            #expect(fetched.metrics.redirectCount == 3)
            #expect(fetched.metrics.transactions.map(\.statusCode) == [302, 302, 302, 200])
            #expect(monitor.events.filter { if case .redirect = $0 { true } else { false } }.count == 3)
            #expect(monitor.events.first == .started(server.url("/redirect/3")))
            #expect(monitor.events.last == .completed(true))
        }
    }

    @Test("every redirect status is followed")
    func statuses() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            for status in [301, 302, 303, 307, 308] {
                let fetched = try await transport.data(for: TransportRequest(url: server.url("/redirect/1?status=\(status)")))
                #expect(fetched.response.statusCode == 200, "\(status)")
            }
        }
    }

    @Test("a loop, or a chain longer than the maximum, ends in tooManyRedirects")
    func loops() async throws {
        try await withServer { server in
            let transport = CurlTransport()
            #expect(await transferError(transport, TransportRequest(url: server.url("/redirect-loop")))?.code == .tooManyRedirects)
            #expect(await transferError(transport, TransportRequest(url: server.url("/redirect-loop/a")))?.code == .tooManyRedirects)
            var short = TransportRequest(url: server.url("/redirect/3"))
            short.redirects.maximum = 2
            #expect(await transferError(transport, short)?.code == .tooManyRedirects)
            // The loop stopped at the maximum: 1 request + 10 redirects.
            #expect(server.requests.filter { $0.path == "/redirect-loop" }.count == 11)
        }
    }

    @Test("with following off, the 3xx is the response")
    func notFollowed() async throws {
        try await withServer { server in
            var request = TransportRequest(url: server.url("/redirect/1"))
            request.redirects.maximum = 0
            let fetched = try await CurlTransport().data(for: request)
            #expect(fetched.response.statusCode == 302)
            #expect(fetched.response.headers["Location"] != nil)
        }
    }

    @Test("https to http is refused by default and followed when allowed")
    func downgrade() async throws {
        let ca = try TestCertificateAuthority()
        try await withServer(.init(tls: ca.issue())) { secure in
            try await withServer { plain in
                let transport = CurlTransport(configuration: .init(certificateAuthorityBundle: try caFile(ca)))
                let target = plain.url("/bytes/10").absoluteString
                let url = secure.url("/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                let error = await transferError(transport, TransportRequest(url: url))
                #expect(error?.code == .insecureRedirect)
                #expect(plain.requests.isEmpty)

                var allowed = TransportRequest(url: url)
                allowed.redirects.allowsInsecureDowngrade = true
                let fetched = try await transport.data(for: allowed)
                #expect(fetched.data == patternBytes(10))
                #expect(plain.requests.count == 1)
            }
        }
    }

    @Test("Authorization is not forwarded to another origin")
    func authorizationStaysHome() async throws {
        try await withServer { first in
            try await withServer { second in
                let target = second.url("/headers").absoluteString
                var request = TransportRequest(
                    url: first.url("/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
                request.headers = ["Authorization": "Bearer secret"]
                let fetched = try await CurlTransport().data(for: request)
                #expect(first.requests[0].header("Authorization") == "Bearer secret")
                #expect(second.requests[0].header("Authorization") == nil)
                #expect(!String(decoding: fetched.data, as: UTF8.self).lowercased().contains("authorization"))
            }
        }
    }
}

/// The CA's certificate in a PEM file, for `certificateAuthorityBundle`.
func caFile(_ ca: TestCertificateAuthority) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-ca-\(UUID().uuidString).pem")
    try ca.certificatePEM.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}
