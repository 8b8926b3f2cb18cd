import Foundation

/// Decides, hop by hop, what a transfer does with a redirect (Alamofire's
/// `RedirectHandler`): follow it, follow it somewhere else or with other headers, or
/// refuse it.
///
/// The transport asks only about a redirect it would follow: after its own rules have
/// passed (a usable `Location`, the request's ``TransportRequest/RedirectPolicy`` with
/// its hop limit and its refusal of `https` to `http`, and the URL policy on the proposed
/// URL). A rewritten URL is held to the same rules before it is followed. A refused
/// redirect fails the transfer with ``TransportError/Code/redirectRefused``, the 3xx in
/// the error's ``TransportError/response``; to receive 3xx responses as they are, set
/// ``TransportRequest/RedirectPolicy/maximum`` to `0` instead.
///
/// Called on the transport's thread, as the hop ends: decide from what the hop carries,
/// quickly, without blocking. A request's handler (``TransportRequest/redirectHandler``)
/// replaces the transport's (`TransportConfiguration.redirectHandler`).
///
/// ```swift
/// // Follow redirects within the same host only.
/// let sameHost = RedirectHandler { hop in
///     hop.proposedURL.host == hop.url.host ? .follow : .refuse
/// }
/// ```
public struct RedirectHandler: Sendable {
    private let decide: @Sendable (RedirectHop) -> RedirectDecision

    /// A handler that asks `decide` about every hop.
    public init(_ decide: @escaping @Sendable (RedirectHop) -> RedirectDecision) {
        self.decide = decide
    }

    /// What to do with `hop`.
    public func decision(for hop: RedirectHop) -> RedirectDecision { decide(hop) }

    /// Follows every redirect the transport's rules allow: the same as no handler.
    public static let follow = RedirectHandler { _ in .follow }
    /// Refuses every redirect: the transfer fails with
    /// ``TransportError/Code/redirectRefused`` at the first 3xx.
    public static let refuse = RedirectHandler { _ in .refuse }
}

/// One redirect as a ``RedirectHandler`` sees it.
public struct RedirectHop: Sendable {
    /// The transfer's request, as it was started.
    public var request: TransportRequest
    /// The URL of the hop that answered with the redirect.
    public var url: URL
    /// The 3xx response.
    public var response: TransportResponse
    /// Where the redirect leads, resolved against ``url``.
    public var proposedURL: URL
    /// The headers the transfer sends: the request's, or those a handler gave an earlier
    /// hop. (On a hop to another origin `Authorization` is left out whatever they say.)
    public var headers: HTTPHeaderFields
    /// Redirects followed before this one.
    public var redirectsSoFar: Int

    public init(
        request: TransportRequest, url: URL, response: TransportResponse, proposedURL: URL, headers: HTTPHeaderFields,
        redirectsSoFar: Int
    ) {
        self.request = request
        self.url = url
        self.response = response
        self.proposedURL = proposedURL
        self.headers = headers
        self.redirectsSoFar = redirectsSoFar
    }
}

/// What a ``RedirectHandler`` decided about one hop.
public enum RedirectDecision: Sendable, Equatable {
    /// Follow the redirect to its proposed URL.
    case follow
    /// Follow it to `url` (which the redirect policy and URL policy judge as they would
    /// the proposed one), sending `headers` from this hop on (`nil` keeps them).
    case rewrite(URL, headers: HTTPHeaderFields?)
    /// Do not follow it: the transfer fails with ``TransportError/Code/redirectRefused``.
    case refuse
}
