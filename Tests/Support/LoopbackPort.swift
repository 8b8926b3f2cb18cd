import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 for the servers the tests start as other processes (nginx,
/// redis-server).
public enum LoopbackPort {
    /// A port the kernel just gave out (the server started on it may lose a race for it: the caller retries).
    public static func free() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ExternalProgram.Failed(description: "socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ExternalProgram.Failed(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connects until the server accepts (true), or `running` turns false or ten seconds
    /// pass (false). Polled every 20 ms: the servers started this way (redis-server, nginx)
    /// give no other sign of listening.
    public static func awaitListening(_ port: Int, while running: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, running() {
            if canConnect(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    public static func canConnect(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
