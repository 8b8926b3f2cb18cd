import Foundation
import WebImageCore
@_spi(Fuzzing) import WebImageTransport

/// Redirect planning under fuzzing: the `Location` header is the server's to choose.
enum RedirectChecks {
    private static let origins = [URL(string: "https://images.example.com/a/b.png")!, URL(string: "http://example.com:8080/x")!]

    /// Plans the hop for `location` with `status` from an https and an http origin, and
    /// checks: a hop goes to http or https only, never from https down to http (the
    /// policy forbids it), keeps the method, and says it crosses origins exactly when
    /// scheme, host or effective port differ; non-redirect statuses are not followed.
    static func run(status: Int, location: String?) {
        for origin in origins {
            let planned = RedirectPlanner.nextHop(
                from: origin, method: .get, statusCode: status, location: location,
                policy: TransportRequest.RedirectPolicy(), redirectsSoFar: 0)
            guard let planned else {
                fuzzCheck(![301, 302, 303, 307, 308].contains(status), "a \(status) redirect was not planned")
                continue
            }
            fuzzCheck([301, 302, 303, 307, 308].contains(status), "a \(status) was planned as a redirect")
            guard case .success(let hop) = planned else { continue }
            let scheme = hop.url.scheme?.lowercased()
            fuzzCheck(scheme == "http" || scheme == "https", "a redirect to \(hop.url)")
            fuzzCheck(!(origin.scheme == "https" && scheme == "http"), "an https to http redirect to \(hop.url) was allowed")
            fuzzCheck(hop.method == .get, "the method changed to \(hop.method)")
            fuzzCheck(hop.crossesOrigin == !RedirectPlanner.sameOrigin(origin, hop.url), "crossesOrigin is wrong for \(hop.url)")
            fuzzCheck(RedirectPlanner.sameOrigin(hop.url, hop.url), "\(hop.url) is not its own origin")
        }
    }
}
