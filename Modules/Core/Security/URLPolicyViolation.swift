import Foundation

/// Why ``URLPolicy`` refused a URL or an address: the rule, and the URL of the hop it
/// refused (a redirect's target, when a redirect was refused).
public struct URLPolicyViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule that refused.
    public enum Rule: Sendable, Hashable {
        /// The scheme is not in ``URLPolicy/allowedSchemes``.
        case schemeNotAllowed(String)
        /// The host is not in ``URLPolicy/allowedHosts``.
        case hostNotAllowed(String)
        /// The host matches a pattern of ``URLPolicy/deniedHosts``.
        case hostDenied(String, by: HostPattern)
        /// The address (named by the URL, or connected to) is not public.
        case nonPublicAddress(IPAddress, IPAddress.Scope)
    }

    public var rule: Rule
    public var url: URL?

    public init(_ rule: Rule, url: URL?) {
        self.rule = rule
        self.url = url
    }

    public var description: String {
        switch rule {
        case .schemeNotAllowed(let scheme): "the scheme \"\(scheme)\" is not allowed"
        case .hostNotAllowed(let host): "the host \(host) is not on the allowed list"
        case .hostDenied(let host, let pattern): "the host \(host) is denied (\(pattern))"
        case .nonPublicAddress(let address, let scope): "the address \(address) is \(scope.rawValue), not public"
        }
    }
}
