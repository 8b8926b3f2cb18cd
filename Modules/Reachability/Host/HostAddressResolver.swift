import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resolves a host name to its IPv4 and IPv6 addresses with getaddrinfo, which blocks:
/// callers run it off their own thread (``resolve(_:)`` on a global queue).
enum HostAddressResolver {
    /// The addresses of `host` as raw bytes (4 for IPv4, 16 for IPv6), without
    /// duplicates, in getaddrinfo's order. Empty when the name does not resolve (which,
    /// for reachability, means unreachable). A literal address resolves to itself.
    static func addresses(of host: String) throws(ReachabilityError) -> [[UInt8]] {
        guard !host.isEmpty, !host.utf8.contains(0) else { throw .invalidHost(host) }
        // A bracketed IPv6 literal, as URLs write it.
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = bytes(of: current.pointee), !addresses.contains(address) { addresses.append(address) }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// ``addresses(of:)`` on a global queue, so that a slow resolver never blocks the
    /// caller's thread or the monitor's.
    static func resolve(_ host: String) async throws(ReachabilityError) -> [[UInt8]] {
        let result: Result<[[UInt8]], ReachabilityError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(ReachabilityError) in try addresses(of: host) })
            }
        }
        return try result.get()
    }

    private static func bytes(of entry: addrinfo) -> [UInt8]? {
        guard let address = entry.ai_addr else { return nil }
        switch entry.ai_family {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }
}
