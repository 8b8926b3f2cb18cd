import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server program a test starts (nginx, krb5kdc, apache2) and stops by a signal,
/// waiting for its exit.
///
/// Spawned with posix_spawn rather than Foundation's `Process`: a child inherits the
/// blocked signals of the thread that starts it, and a test thread blocks nearly all of
/// them, so a program started through `Process` ignores SIGTERM and can only be killed,
/// losing what it had yet to write. Here the child starts with no signal blocked and
/// default handlers, optionally in a process group of its own (so that its workers are
/// signalled with it).
public final class SpawnedProcess: Sendable {
    public let pid: pid_t
    private let isGroupLeader: Bool
    private let exited = Mutex(false)

    /// Starts `executable arguments...` with `environment` added to the test's own (the
    /// test process's environment is not changed), its standard input from /dev/null and
    /// both outputs to `output` (nothing when `nil`).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], output: URL? = nil,
        ownProcessGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw ExternalProgram.Failed(description: "posix_spawn \(executable): error \(result)") }
        pid = child
        isGroupLeader = ownProcessGroup
    }

    deinit { stop() }

    /// Whether the process is still there (reaps it when it has ended).
    public var isRunning: Bool {
        exited.withLock { exited in
            guard !exited else { return false }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno == ECHILD) { exited = true }
            return !exited
        }
    }

    /// Sends `signal` (to the group when the process leads one), waits up to `limit` for
    /// the exit, then kills it (SIGKILL) and waits for that; returns once it has exited.
    /// A process group is killed in the end either way, so that no worker outlives it.
    public func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) {
        let target = isGroupLeader ? -pid : pid
        defer { if isGroupLeader { kill(target, SIGKILL) } }
        guard isRunning else { return }
        // A thread of its own blocks in waitpid, so the wait ends at the exit itself.
        let reaped = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            reaped.signal()
        }
        kill(target, signal)
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        if reaped.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
            kill(target, SIGKILL)
            reaped.wait()
        }
        exited.withLock { $0 = true }
    }
}
