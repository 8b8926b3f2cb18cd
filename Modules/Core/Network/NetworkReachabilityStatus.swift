/// Whether the network is there: AFNetworking's reachability status, on Linux's terms.
///
/// A host is *reachable* when the kernel has a route to it through a link that is up and
/// running; the network as a whole is reachable when a default route does. Reachable
/// says nothing about the far end answering: it is the cheap, local half of the question,
/// enough to tell "no network" from "server down".
public enum NetworkReachabilityStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not known yet (before the first look at the kernel's tables, or after reading
    /// them failed).
    case unknown
    /// No usable route: no default route (or none to the host), or only through links
    /// that are down, have no carrier, or are loopback.
    case unreachable
    /// A usable route goes through a link of this kind.
    case reachable(NetworkInterfaceKind)

    /// Whether this is ``reachable(_:)``, whatever the kind.
    public var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }

    /// `unknown`, `unreachable`, or `reachable(wired)` and so on.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .unreachable: "unreachable"
        case .reachable(let kind): "reachable(\(kind))"
        }
    }
}
