import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A proxy server in a process of its own (ours, or a peer), so that its CPU time is read
/// apart from the load generator's and the origin's (/proc/PID/stat).
final class ProxyProcess {
    let process = Process()
    let port: Int
    private let output = Pipe()

    /// Starts `executable arguments` and waits until `ready(port)` says it serves.
    init(executable: URL, arguments: [String], environment: [String: String] = [:], port: Int, waitFor ready: () -> Bool) throws {
        self.port = port
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !ready() {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.terminate()
                throw Baseline.Failure(description: "\(executable.lastPathComponent) did not start serving on port \(port)")
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        process.waitUntilExit()
    }

    /// User plus system CPU seconds used so far.
    var cpuSeconds: Double { Self.cpuSeconds(of: process.processIdentifier) }

    static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm) ": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A port nobody listens on now: bound once by the kernel's choice, then released.
    static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = Glibc.bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether `url` answers 200 now.
    static func answers(_ url: URL) -> Bool {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var ok = false
        let task = URLSession.shared.dataTask(with: url) { _, response, _ in
            ok = (response as? HTTPURLResponse)?.statusCode == 200
            done.signal()
        }
        task.resume()
        done.wait()
        return ok
    }
}
