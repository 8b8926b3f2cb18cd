import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A redis-server on 127.0.0.1 at a free port, started by a test and stopped by it: no
/// persistence, no daemon, its own working folder. It can be paused (SIGSTOP) and resumed,
/// killed, and started again on the same port.
public final class RedisServer: @unchecked Sendable {
    /// The installed redis-server, or `nil` (the tests that need one skip, saying so).
    public static let program = ExternalProgram.locate("redis-server")
    /// Why the tests that need a node skip on this machine.
    public static let missingMessage = "redis-server is not installed (make test-deps installs it): the shared cache tests skip"

    public let port: Int
    private let folder: TemporaryDirectory
    private let arguments: [String]
    private var process: SpawnedProcess?

    /// Starts redis-server with `arguments` added to its command line (`--maxmemory 1mb`,
    /// say).
    public init(arguments: [String] = []) throws {
        guard Self.program != nil else { throw ExternalProgram.Failed(description: Self.missingMessage) }
        folder = try TemporaryDirectory()
        self.arguments = arguments
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            do {
                process = try Self.start(port: port, folder: folder.path, arguments: arguments)
                self.port = port
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ExternalProgram.Failed(description: "redis-server did not start")
    }

    deinit { stop() }

    /// `redis://127.0.0.1:port`.
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Stops the process at once (SIGKILL, as a crash would) and waits for it.
    public func stop() {
        process?.stop(SIGKILL)
    }

    /// Starts it again on the same port, empty.
    public func restart() throws {
        stop()
        process = try Self.start(port: port, folder: folder.path, arguments: arguments)
    }

    /// Freezes the process (SIGSTOP): connections stay open, nothing is answered.
    public func pause() {
        process?.signal(SIGSTOP)
    }

    /// Lets a paused process go on (SIGCONT).
    public func resume() {
        process?.signal(SIGCONT)
    }

    private static func start(port: Int, folder: String, arguments: [String]) throws -> SpawnedProcess {
        let process = try SpawnedProcess(
            program ?? "redis-server",
            [
                "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--dir", folder, "--logfile", "\(folder)/redis-\(port).log",
            ] + arguments)
        guard LoopbackPort.awaitListening(port, while: { process.isRunning }) else {
            process.stop(SIGKILL)
            let log = (try? String(contentsOfFile: "\(folder)/redis-\(port).log", encoding: .utf8)) ?? ""
            throw ExternalProgram.Failed(description: "redis-server did not start on port \(port): \(log.suffix(400))")
        }
        return process
    }
}
