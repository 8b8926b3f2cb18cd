import Foundation
import WebImageCore

/// Decides where a redirect leads and whether to follow it. The transport follows
/// redirects itself rather than through libcurl, so every hop is checked here, against
/// the trust policy of its own host, and reported to the event monitors.
///
/// SPI (`@_spi(Fuzzing)`) rather than `package`: the fuzz harnesses in Tools/ are a package
/// of their own.
@_spi(Fuzzing)
public enum RedirectPlanner {
    public struct Hop: Equatable {
        public var url: URL
        public var method: TransportRequest.Method
        /// The new URL is on another origin (scheme, host or port): credentials and an
        /// `Authorization` header stay behind.
        public var crossesOrigin: Bool
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// `nil` when the response is not a redirect to follow (not a 3xx with a redirect
    /// status, or following is off): it is then delivered as it is.
    public static func nextHop(
        from url: URL, method: TransportRequest.Method, statusCode: Int, location: String?,
        policy: TransportRequest.RedirectPolicy, redirectsSoFar: Int
    ) -> Result<Hop, TransportError>? {
        guard redirectStatuses.contains(statusCode), policy.maximum > 0 else { return nil }
        guard let location, !location.isEmpty,
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased()
        else {
            return .failure(TransportError(.badRedirect, "a \(statusCode) without a usable Location", url: url))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(TransportError(.badRedirect, "a redirect to the \(scheme) scheme is not followed", url: url))
        }
        if redirectsSoFar + 1 > policy.maximum {
            return .failure(TransportError(.tooManyRedirects, "more than \(policy.maximum) redirects", url: url))
        }
        if url.scheme?.lowercased() == "https", scheme == "http", !policy.allowsInsecureDowngrade {
            return .failure(TransportError(.insecureRedirect, "a redirect from https to \(target.absoluteString) is refused", url: url))
        }
        // 303 always turns into GET; HEAD stays HEAD.
        return .success(Hop(url: target, method: method, crossesOrigin: !sameOrigin(url, target)))
    }

    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased()
            && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    static func effectivePort(_ url: URL) -> Int? {
        url.port ?? defaultPort(forScheme: url.scheme?.lowercased() ?? "")
    }

    /// 443 for https, 80 for http, `nil` for a scheme without a port.
    static func defaultPort(forScheme scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
