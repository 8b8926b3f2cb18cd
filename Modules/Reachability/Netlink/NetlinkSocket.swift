internal import CWebImageReachability
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Owns one NETLINK_ROUTE socket (non-blocking): reads notifications, or asks the kernel
/// for its tables and waits up to a second for each reply. Not `Sendable`: one thread
/// uses it at a time; `deinit` closes the descriptor.
final class NetlinkSocket {
    let descriptor: Int32
    private var sequence: UInt32 = 0
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// A socket subscribed to the watcher's groups (links, addresses, routes), or to
    /// none, for requests only.
    init(subscribed: Bool) throws(ReachabilityError) {
        let result = wir_netlink_open(subscribed ? wir_watch_groups() : 0)
        guard result >= 0 else { throw .netlinkUnavailable(errno: -result) }
        descriptor = result
    }

    deinit { close(descriptor) }

    /// One datagram, or `nil` when none is waiting. A lost notification (ENOBUFS: the
    /// socket's buffer overflowed) reads as an empty datagram: the caller dumps the tables
    /// again anyway.
    func receive() throws(ReachabilityError) -> [UInt8]? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer[0..<count]) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case ENOBUFS: return []
            case let code: throw .netlinkFailed(operation: "recv", errno: code)
            }
        }
    }

    /// Every link and every route (IPv4 and IPv6, all tables).
    func dumpTables() throws(ReachabilityError) -> (links: [Int32: LinkMessage], routes: [RouteMessage]) {
        var links: [Int32: LinkMessage] = [:]
        for message in try dump(Netlink.getLink) where message.type == Netlink.newLink {
            let link = try LinkMessage(payload: message.payload)
            links[link.index] = link
        }
        let routes = try dump(Netlink.getRoute).filter { $0.type == Netlink.newRoute }.map { (message) throws(ReachabilityError) in
            try RouteMessage(payload: message.payload)
        }
        return (links, routes)
    }

    /// The route the kernel would use to reach `address` (4 bytes of IPv4 or 16 of IPv6),
    /// or `nil` when it has none (network or host unreachable).
    func route(to address: [UInt8]) throws(ReachabilityError) -> RouteMessage? {
        let sequence = nextSequence()
        let family: UInt8 = address.count == 4 ? 2 : 10
        let sent = address.withUnsafeBufferPointer { wir_request_route_to(descriptor, family, $0.baseAddress, $0.count, sequence) }
        guard sent == 0 else { throw .netlinkFailed(operation: "RTM_GETROUTE", errno: -sent) }
        while true {
            for message in try replies(to: sequence, operation: "RTM_GETROUTE") {
                // The kernel answers "no route" with an error (ENETUNREACH, EHOSTUNREACH,
                // EACCES for a prohibit route): for reachability, each means unreachable.
                if message.type == Netlink.error { return nil }
                if message.type == Netlink.newRoute { return try RouteMessage(payload: message.payload) }
            }
        }
    }

    private func dump(_ type: UInt16) throws(ReachabilityError) -> [NetlinkMessage] {
        let sequence = nextSequence()
        let operation = type == Netlink.getLink ? "RTM_GETLINK dump" : "RTM_GETROUTE dump"
        let sent = wir_request_dump(descriptor, type, 0, sequence)
        guard sent == 0 else { throw .netlinkFailed(operation: operation, errno: -sent) }
        var messages: [NetlinkMessage] = []
        while true {
            for message in try replies(to: sequence, operation: operation) {
                switch message.type {
                case Netlink.done: return messages
                case Netlink.error:
                    let code = try NetlinkMessageParser.errorCode(of: message)
                    if code != 0 { throw .netlinkFailed(operation: operation, errno: -code) }
                    return messages
                default: messages.append(message)
                }
            }
        }
    }

    /// The messages of the next datagram that answer `sequence`, waiting up to a second.
    private func replies(to sequence: UInt32, operation: String) throws(ReachabilityError) -> [NetlinkMessage] {
        while true {
            guard let datagram = try receive() else {
                try waitReadable(operation: operation)
                continue
            }
            let answers = try NetlinkMessageParser.messages(in: datagram).filter { $0.sequence == sequence }
            if !answers.isEmpty { return answers }
        }
    }

    private func waitReadable(operation: String) throws(ReachabilityError) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, 1000)
            if ready > 0 { return }
            if ready == 0 { throw .timedOut(operation: operation) }
            if errno != EINTR { throw .netlinkFailed(operation: "poll", errno: errno) }
        }
    }

    private func nextSequence() -> UInt32 {
        sequence &+= 1
        return sequence
    }
}
