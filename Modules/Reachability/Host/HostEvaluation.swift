import Dispatch
import WebImageCore

/// A host's status: the kernel's route to each of its addresses, judged against the links.
enum HostEvaluation {
    /// The status of a host with these addresses. A failed request counts as no route.
    static func status(
        of addresses: [[UInt8]], using socket: NetlinkSocket, links: [Int32: LinkMessage],
        kind: (LinkMessage) -> NetworkInterfaceKind
    ) -> NetworkReachabilityStatus {
        let routes = addresses.map { address in (try? socket.route(to: address)) ?? nil }
        return ReachabilityEvaluation.hostStatus(routes: routes, links: links, kind: kind)
    }

    /// The status of `host` on a socket of its own: resolves the name (unreachable when it
    /// does not resolve), then asks for the routes.
    static func status(
        ofHost host: String, links: [Int32: LinkMessage], kind: (LinkMessage) -> NetworkInterfaceKind
    ) throws(ReachabilityError) -> (addresses: [[UInt8]], status: NetworkReachabilityStatus) {
        let addresses = try HostAddressResolver.addresses(of: host)
        guard !addresses.isEmpty else { return ([], .unreachable) }
        let socket = try NetlinkSocket(subscribed: false)
        return (addresses, status(of: addresses, using: socket, links: links, kind: kind))
    }

    /// Resolves a watched host on a global queue (getaddrinfo blocks), then posts its
    /// status. Does nothing while a resolution of it is under way.
    static func resolveAndEvaluate(_ watch: HostWatch, state: MonitorState, kind: @escaping @Sendable (LinkMessage) -> NetworkInterfaceKind)
    {
        guard watch.beginResolving() else { return }
        DispatchQueue.global().async {
            let result = try? status(ofHost: watch.host, links: state.links, kind: kind)
            watch.finishResolving(with: result?.addresses ?? [])
            watch.mailbox.post(result?.status ?? .unreachable)
        }
    }
}
