import Foundation

/// Which URLs a load may fetch, and which addresses it may connect to.
///
/// The default lets a load fetch `http` and `https` URLs from any host. A server that
/// loads URLs its users give should refuse its own network too: ``publicOnly`` refuses
/// loopback, private, link-local, unique-local, multicast, unspecified, reserved and
/// IPv4-embedded addresses (``IPAddress/Scope``).
///
/// The transport checks a policy at three points, so that neither a redirect nor DNS can
/// get around it:
/// - the URL of every hop (the first and each redirect): scheme, host lists, and the
///   address when the host is written as one;
/// - the address of every connection about to be opened, as resolved (DNS rebinding);
/// - the address of a kept-alive connection before it is reused for a request.
///
/// A refusal fails the load with `TransportError.Code.refusedByPolicy` and a
/// ``URLPolicyViolation`` naming the rule; no connection is opened for a refused address.
///
/// With a proxy, the transport connects to the proxy: the address rules then apply to the
/// proxy's address, and the proxy must enforce its own. Host rules still apply to the URL.
///
/// ```swift
/// var policy = URLPolicy.publicOnly
/// policy.allowedHosts = ["images.example.com", "*.cdn.example.net"]
/// let transport = CurlTransport(configuration: .init(urlPolicy: policy))
/// ```
public struct URLPolicy: Sendable, Hashable {
    /// The schemes a load may use, lowercase. `file` and `data` load without the network
    /// and are refused unless named here: a server must not read its own files because
    /// a user sent `file:///etc/passwd`.
    public var allowedSchemes: Set<String>
    /// When not `nil`, only these hosts are fetched (see ``HostPattern``); every other is
    /// refused. Checked for every redirect hop too.
    public var allowedHosts: [HostPattern]?
    /// Hosts never fetched, even when ``allowedHosts`` names them.
    public var deniedHosts: [HostPattern]
    /// Refuses every address whose scope is not `IPAddress.Scope.public`, whether the
    /// URL names it or a host name resolves to it.
    public var refusesNonPublicAddresses: Bool

    public init(
        allowedSchemes: Set<String> = ["http", "https"], allowedHosts: [HostPattern]? = nil, deniedHosts: [HostPattern] = [],
        refusesNonPublicAddresses: Bool = false
    ) {
        self.allowedSchemes = Set(allowedSchemes.map { $0.lowercased() })
        self.allowedHosts = allowedHosts
        self.deniedHosts = deniedHosts
        self.refusesNonPublicAddresses = refusesNonPublicAddresses
    }

    /// `http` and `https`, any host, any address: the default.
    public static let standard = URLPolicy()
    /// `http` and `https` to public addresses only: for servers that load URLs their
    /// users give.
    public static let publicOnly = URLPolicy(refusesNonPublicAddresses: true)
    /// Every scheme the transport knows (`http`, `https`, `file`, `data`), any host, any
    /// address: for a program on a user's own machine loading what that user typed.
    public static let unrestricted = URLPolicy(allowedSchemes: ["http", "https", "file", "data"])

    /// Whether the policy checks addresses at all (the transport then watches every
    /// connection it opens or reuses).
    public var checksAddresses: Bool { refusesNonPublicAddresses }

    /// The first rule `url` breaks: its scheme, its host, or (when the host is an address)
    /// that address. `nil` when it may be fetched.
    public func violation(for url: URL) -> URLPolicyViolation? {
        let scheme = url.scheme?.lowercased() ?? ""
        guard allowedSchemes.contains(scheme) else { return URLPolicyViolation(.schemeNotAllowed(scheme), url: url) }
        guard scheme == "http" || scheme == "https" else { return nil }
        // The default policy names no host and no address rule: every transfer checks it,
        // so it reads the host only when a rule needs it.
        guard allowedHosts != nil || !deniedHosts.isEmpty || refusesNonPublicAddresses else { return nil }
        let host = HostPattern.normalized(url.host ?? "")
        if let denied = deniedHosts.first(where: { $0.matches(normalizedHost: host) }) {
            return URLPolicyViolation(.hostDenied(host, by: denied), url: url)
        }
        if let allowedHosts, !allowedHosts.contains(where: { $0.matches(normalizedHost: host) }) {
            return URLPolicyViolation(.hostNotAllowed(host), url: url)
        }
        if let address = IPAddress(host), let violation = violation(for: address, url: url) { return violation }
        return nil
    }

    /// Whether a connection to `address` (for `url`, named in the violation) is refused.
    public func violation(for address: IPAddress, url: URL? = nil) -> URLPolicyViolation? {
        guard refusesNonPublicAddresses else { return nil }
        let scope = address.scope
        guard scope == .public else { return URLPolicyViolation(.nonPublicAddress(address, scope), url: url) }
        return nil
    }
}

/// A host, or every host under a domain, as ``URLPolicy`` lists them.
///
/// `"example.com"` is that host exactly; `"*.example.com"` is every host under it
/// (`a.example.com`, `a.b.example.com`) but not `example.com` itself. Matching ignores
/// case and a trailing dot; an IPv6 address is written without brackets.
public struct HostPattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The pattern as given, normalized (lowercase, no trailing dot or brackets).
    public let pattern: String

    public init(_ pattern: String) {
        self.pattern = Self.normalized(pattern)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { pattern }

    /// Whether `host` (as a URL has it) is this pattern's host or under its domain.
    public func matches(_ host: String) -> Bool {
        matches(normalizedHost: Self.normalized(host))
    }

    func matches(normalizedHost host: String) -> Bool {
        guard pattern.hasPrefix("*.") else { return host == pattern }
        let domain = pattern.dropFirst(1)  // ".example.com"
        return host.count > domain.count && host.hasSuffix(domain)
    }

    static func normalized(_ host: String) -> String {
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        while host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }
}
