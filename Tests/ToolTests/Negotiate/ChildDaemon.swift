import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server program a test starts (krb5kdc, apache2) in the foreground, its output in a
/// log file, in a process group of its own; stopped by that group (SIGTERM, then
/// SIGKILL) and waited for.
///
/// Spawned with posix_spawn rather than Foundation's `Process`: a child inherits the
/// blocked signals of the thread that starts it, and a test thread blocks nearly all of
/// them, so a daemon started through `Process` ignores SIGTERM (and Apache, killed,
/// leaves its workers behind). Here the child starts with no signal blocked and default
/// handlers, and the whole group (Apache's workers too) is signalled.
final class ChildDaemon {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    let log: URL
    private let pid: pid_t
    private var exited = false

    /// Starts `executable arguments...` with `environment` added to the test's own (the
    /// test process's environment is not changed).
    init(_ executable: String, _ arguments: [String], environment: [String: String], log: URL) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        self.log = log
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failed(description: "posix_spawn \(executable): error \(result)") }
        pid = child
    }

    /// Whether the process is still there (reaps it when it has ended).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid || (reaped < 0 && errno == ECHILD) { exited = true }
        return !exited
    }

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
        defer { kill(-pid, SIGKILL) }
        guard isRunning else { return }
        // A thread of its own blocks in waitpid, so the wait ends at the exit itself.
        let reaped = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            reaped.signal()
        }
        kill(-pid, SIGTERM)
        if reaped.wait(timeout: .now() + 5) == .timedOut {
            kill(-pid, SIGKILL)
            reaped.wait()
        }
        exited = true
    }

    deinit { stop() }
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
