import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test runs as a child process: a server it stops by a signal (nginx,
/// redis-server, `webimage serve`) or a command it runs to the end (openssl, curl, ip).
///
/// Every child of the suite starts here, with posix_spawn rather than Foundation's
/// `Process`, for three reasons:
/// - `Process.run()` looks for the highest open descriptor by reading /proc/self/fd into
///   a fixed buffer, and crashes when the test process holds a few thousand descriptors
///   (hundreds of loopback servers alive at once in a parallel run). Here the child
///   closes every descriptor above its standard streams itself (`closefrom` in the
///   spawn's file actions), whatever their number, and inherits none of the test's
///   sockets.
/// - A child inherits the blocked signals of the thread that starts it, and a test
///   thread blocks nearly all of them, so a program started through `Process` ignores
///   SIGTERM. Here the child starts with no signal blocked and default handlers.
/// - A thread of its own waits for the exit, so a caller waits for the event itself and
///   the pid is reaped only under the lock that signalling takes: a signal never reaches
///   a process that has already been reaped, whose pid could be someone else's.
public final class SpawnedProcess: Sendable {
    /// Where one of the child's output streams goes.
    public enum Destination: Sendable, Equatable {
        /// /dev/null.
        case discard
        /// A file, created or truncated.
        case file(URL)
        /// A pipe whose reading end is ``output`` or ``errors``.
        case pipe
        /// Wherever standard output goes (for standard error only).
        case standardOutput
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or the signal's number (as `Process.terminationStatus` gives it).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// The reading end of standard output, when it goes to a pipe.
    public let output: FileHandle?
    /// The reading end of standard error, when it goes to a pipe of its own.
    public let errors: FileHandle?
    private let isGroupLeader: Bool
    private let ending: ExitRecord

    /// Starts `executable arguments...` (a path: `PATH` is not searched) with
    /// `environment` added to the test process's own (which is not changed), in
    /// `folder` when given, with standard input from /dev/null.
    ///
    /// - Parameter ownProcessGroup: whether the child leads a process group of its own,
    ///   so that ``signal(_:)`` and ``stop(_:within:)`` reach its workers too.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
        output outputDestination: Destination = .discard, errors errorsDestination: Destination = .standardOutput,
        ownProcessGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        func route(_ destination: Destination, to stream: Int32) throws -> FileHandle? {
            switch destination {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, stream, "/dev/null", O_WRONLY, 0)
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, stream, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, stream)
            case .pipe:
                let (reading, writing) = try Self.pipe()
                parentEnds.append(reading)
                childEnds.append(writing)
                posix_spawn_file_actions_adddup2(&actions, writing, stream)
                return FileHandle(fileDescriptor: reading, closeOnDealloc: true)
            }
            return nil
        }
        do {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            output = try route(outputDestination, to: 1)
            errors = try route(errorsDestination, to: 2)
            try SpawnExtensions.closeFrom(3, in: &actions)
            if let folder { try SpawnExtensions.changeDirectory(to: folder.path, in: &actions) }
        } catch {
            for descriptor in parentEnds { close(descriptor) }
            throw error
        }

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
        guard result == 0 else {
            throw Failed(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        isGroupLeader = ownProcessGroup
        ending = ExitRecord(pid: child)
    }

    deinit { stop() }

    /// Whether the process has not ended yet.
    public var isRunning: Bool { ending.termination == nil }

    /// Sends `signal` to the process (to its group when it leads one), unless it has
    /// ended.
    public func signal(_ signal: Int32) {
        ending.unlessEnded { kill(isGroupLeader ? -pid : pid, signal) }
    }

    /// Waits for the end, blocking the calling thread.
    @discardableResult
    public func waitForExit() -> Termination { ending.wait(until: nil)! }

    /// Waits for the end without blocking a thread.
    @discardableResult
    public func exited() async -> Termination { await ending.ended() }

    /// Runs the program to its end with both outputs on pipes read at once (so neither
    /// can fill and block it): its termination and what it wrote.
    public static func finish(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil
    ) throws -> (termination: Termination, output: Data, errors: Data) {
        let process = try SpawnedProcess(
            executable, arguments, environment: environment, in: folder, output: .pipe, errors: .pipe)
        let errorsRead = DispatchSemaphore(value: 0)
        let errors = ReadBuffer()
        Thread { [handle = process.errors!] in
            errors.data = handle.readDataToEndOfFile()
            errorsRead.signal()
        }.start()
        let output = process.output!.readDataToEndOfFile()
        errorsRead.wait()
        return (process.waitForExit(), output, errors.data)
    }

    /// Sends `signal` (to the group when the process leads one), waits up to `limit` for
    /// the exit, then kills it (SIGKILL) and waits for that; returns once it has exited.
    /// A process group is killed in the end either way, so that no worker outlives it.
    public func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) {
        defer { if isGroupLeader { kill(-pid, SIGKILL) } }
        guard isRunning else { return }
        self.signal(signal)
        let (seconds, attoseconds) = limit.components
        if ending.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)) == nil {
            self.signal(SIGKILL)
            ending.wait(until: nil)
        }
    }

    private static func pipe() throws -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw Failed(description: "pipe: \(String(cString: strerror(errno)))") }
        // The test's own ends must not reach children started by other code.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Standard error's data, written by its reading thread before it signals.
    private final class ReadBuffer: @unchecked Sendable {
        var data = Data()
    }
}

/// The child's end, recorded by a thread that waits for it.
private final class ExitRecord: @unchecked Sendable {
    private let condition = NSCondition()
    private var recorded: SpawnedProcess.Termination?
    private var waiters: [CheckedContinuation<SpawnedProcess.Termination, Never>] = []

    init(pid: pid_t) {
        let thread = Thread { [self] in watch(pid) }
        thread.name = "wi-child-\(pid)"
        thread.stackSize = 64 << 10
        thread.start()
    }

    var termination: SpawnedProcess.Termination? {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// Runs `body` under the lock, if the child has not been reaped.
    func unlessEnded(_ body: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        if recorded == nil { body() }
    }

    /// The termination, waiting for it until `deadline` (for ever when `nil`); `nil` on
    /// timeout.
    @discardableResult
    func wait(until deadline: Date?) -> SpawnedProcess.Termination? {
        condition.lock()
        defer { condition.unlock() }
        while recorded == nil {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return recorded
    }

    func ended() async -> SpawnedProcess.Termination {
        await withCheckedContinuation { continuation in
            condition.lock()
            if let recorded {
                condition.unlock()
                continuation.resume(returning: recorded)
            } else {
                waiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Waits for the exit without reaping, then reaps and records under the lock.
    private func watch(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        var status: Int32 = 0
        condition.lock()
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7f
        let ended: SpawnedProcess.Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        recorded = ended
        let resumed = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume(returning: ended) }
    }
}

/// glibc's spawn extensions (2.29 and 2.34), which Swift's Glibc module does not import:
/// declared only under `_GNU_SOURCE`.
private enum SpawnExtensions {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        // RTLD_DEFAULT is a null handle in glibc.
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }

    static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        guard let function = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) else {
            throw SpawnedProcess.Failed(description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34)")
        }
        _ = function(&actions, lowest)
    }

    static func changeDirectory(to path: String, in actions: inout posix_spawn_file_actions_t) throws {
        guard let function = symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else {
            throw SpawnedProcess.Failed(description: "this C library has no posix_spawn_file_actions_addchdir_np (glibc 2.29)")
        }
        _ = path.withCString { function(&actions, $0) }
    }
}
