import Foundation
import Testing
import WebImageCore

@_spi(Fuzzing) @testable import WebImageTransport

@Suite("Redirect decisions")
struct RedirectPlannerTests {
    let origin = URL(string: "https://images.example.com/a/b.png")!

    private func plan(
        _ status: Int, _ location: String?, from url: URL? = nil, policy: TransportRequest.RedirectPolicy = .init(), sofar: Int = 0
    )
        -> Result<RedirectPlanner.Hop, TransportError>?
    {
        RedirectPlanner.nextHop(
            from: url ?? origin, method: .get, statusCode: status, location: location, policy: policy, redirectsSoFar: sofar)
    }

    private func hop(_ status: Int, _ location: String?, policy: TransportRequest.RedirectPolicy = .init(), sofar: Int = 0) throws
        -> RedirectPlanner.Hop
    {
        let planned = try #require(plan(status, location, policy: policy, sofar: sofar))
        return try planned.get()
    }

    private func failure(_ status: Int, _ location: String?, policy: TransportRequest.RedirectPolicy = .init(), sofar: Int = 0)
        -> TransportError.Code?
    {
        guard case .failure(let error) = plan(status, location, policy: policy, sofar: sofar) else { return nil }
        return error.code
    }

    @Test("relative locations resolve against the current URL and stay on the origin")
    func relative() throws {
        let next = try hop(302, "../c.png")
        #expect(next.url.absoluteString == "https://images.example.com/c.png")
        #expect(!next.crossesOrigin)
    }

    @Test("another host, scheme or port is another origin")
    func crossOrigin() throws {
        #expect(try hop(301, "https://cdn.example.com/x").crossesOrigin)
        #expect(try hop(307, "https://images.example.com:8443/x").crossesOrigin)
        #expect(try !hop(308, "https://images.example.com:443/x").crossesOrigin)
    }

    @Test("https to http is refused unless allowed")
    func downgrade() throws {
        #expect(failure(302, "http://images.example.com/x") == .insecureRedirect)
        #expect(try hop(302, "http://images.example.com/x", policy: .init(allowsInsecureDowngrade: true)).url.scheme == "http")
    }

    @Test("one hop past the maximum fails with tooManyRedirects")
    func maximum() throws {
        #expect(try hop(302, "/x", policy: .init(maximum: 3), sofar: 2).url.path == "/x")
        #expect(failure(302, "/x", policy: .init(maximum: 3), sofar: 3) == .tooManyRedirects)
    }

    @Test("non-redirect statuses, and following turned off, are not redirects")
    func notRedirects() {
        #expect(plan(200, "/x") == nil)
        #expect(plan(304, "/x") == nil)
        #expect(plan(300, "/x") == nil)
        #expect(plan(302, "/x", policy: .init(maximum: 0)) == nil)
    }

    @Test("a missing Location or another scheme is a bad redirect")
    func bad() {
        for location in [nil, "", "ftp://example.com/x", "javascript:alert(1)"] as [String?] {
            #expect(failure(302, location) == .badRedirect, "\(String(describing: location))")
        }
    }
}
