import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP port where nothing listens, held for the test's lifetime: a socket
/// bound to it but never listening, so connecting is refused and no other test can take
/// the port meanwhile. (A port that was "just free" can be taken by a server that a test
/// running in parallel starts.)
public final class RefusingPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        (descriptor, port) = try LoopbackSocket.bound(listening: false)
    }

    deinit { close(descriptor) }
}

/// A TCP socket on a free loopback port, made for the test's own servers.
enum LoopbackSocket {
    /// A socket bound to 127.0.0.1 on a port the system picks, listening when `listening`
    /// (a backlog of 16), and that port.
    static func bound(listening: Bool) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
                    && (!listening || listen(descriptor, 16) == 0)
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
