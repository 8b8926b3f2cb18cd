import Foundation
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A server program a test starts (krb5kdc, apache2) in the foreground, its output in a
/// log file, in a process group of its own (a ``SpawnedProcess``: no signal blocked, so
/// SIGTERM reaches it, and Apache's workers go with the group); stopped by that group
/// (SIGTERM, then SIGKILL) and waited for.
final class ChildDaemon {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    let log: URL
    private let process: SpawnedProcess

    /// Starts `executable arguments...` with `environment` added to the test's own (the
    /// test process's environment is not changed).
    init(_ executable: String, _ arguments: [String], environment: [String: String], log: URL) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        self.log = log
        do {
            process = try SpawnedProcess(executable, arguments, environment: environment, output: .file(log), ownProcessGroup: true)
        } catch {
            throw Failed(description: "\(error)")
        }
    }

    /// Whether the process is still there (reaps it when it has ended).
    var isRunning: Bool { process.isRunning }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port`. The daemons
    /// give no other sign of being ready, so this tries to connect every 20 ms, for at
    /// most `timeout`; a daemon that exits first fails at once, with its log.
    func waitUntilListening(on port: Int, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard isRunning else { throw Failed(description: "\(name) exited: \(logText)") }
            if LoopbackPort.accepts(port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failed(description: "\(name) did not listen on 127.0.0.1:\(port) within \(timeout): \(logText)")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "(no log)" }

    /// SIGTERM to the group, SIGKILL after 5 s; returns when the process has exited. The
    /// group is killed in the end either way, so no worker outlives the test.
    func stop() {
        process.stop()
    }
}

/// Free ports and listening checks on 127.0.0.1.
enum LoopbackPort {
    /// A port the kernel just handed out and that nothing listens on (bound, then closed).
    static func free() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ChildDaemon.Failed(description: "socket: errno \(errno)") }
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ChildDaemon.Failed(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}
