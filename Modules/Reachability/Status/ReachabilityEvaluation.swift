import WebImageCore

/// The status from the kernel's tables: pure logic, no I/O (the interface kind comes from
/// the `kind` function the caller gives).
enum ReachabilityEvaluation {
    /// The network's status: reachable through the best usable default route (lowest
    /// metric; IPv4 and IPv6 alike), unreachable when there is none.
    ///
    /// A default route is usable when it is a unicast route outside the local table with
    /// a destination prefix of length 0 and (one of) its output links is up, running and
    /// not loopback. Linear in the number of routes.
    static func networkStatus(
        links: [Int32: LinkMessage], routes: [RouteMessage], kind: (LinkMessage) -> NetworkInterfaceKind
    ) -> NetworkReachabilityStatus {
        var best: (link: LinkMessage, priority: UInt32)?
        for route in routes
        where route.destinationLength == 0 && route.type == RouteMessage.unicast && route.table != RouteMessage.localTable {
            guard let link = usableLink(of: route, in: links, allowingLoopback: false) else { continue }
            if let current = best, current.priority <= route.priority { continue }
            best = (link, route.priority)
        }
        return best.map { .reachable(kind($0.link)) } ?? .unreachable
    }

    /// A host's status from the kernel's answers to RTM_GETROUTE for each of its
    /// addresses (`nil` for an address the kernel has no route to): reachable through the
    /// first usable one. A local address is reachable through loopback.
    static func hostStatus(
        routes: [RouteMessage?], links: [Int32: LinkMessage], kind: (LinkMessage) -> NetworkInterfaceKind
    ) -> NetworkReachabilityStatus {
        for case let route? in routes {
            if route.type == RouteMessage.local { return .reachable(.loopback) }
            guard route.type == RouteMessage.unicast, let link = usableLink(of: route, in: links, allowingLoopback: true) else {
                continue
            }
            return .reachable(link.isLoopback ? .loopback : kind(link))
        }
        return .unreachable
    }

    private static func usableLink(of route: RouteMessage, in links: [Int32: LinkMessage], allowingLoopback: Bool) -> LinkMessage? {
        for index in route.outputInterfaces {
            guard let link = links[index], link.isUpAndRunning, allowingLoopback || !link.isLoopback else { continue }
            return link
        }
        return nil
    }
}
