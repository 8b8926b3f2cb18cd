import Foundation

/// A program of the system (openssl, nginx) that a test runs.
public enum ExternalProgram {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The program's path on `PATH` or in the sbin folders (nginx lives in /usr/sbin).
    public static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/local/sbin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// How a program ended, and what it wrote.
    public struct Finished: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String
    }

    /// Runs `program` to its end, with `environment` added to this process's (which is not
    /// changed), in `folder` when given, and with nothing on its standard input. Both of
    /// its outputs are read at once, so that neither pipe can fill and block the program.
    public static func finish(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil
    ) throws -> Finished {
        let run = try SpawnedProcess.finish(program, arguments, environment: environment, in: folder)
        return Finished(
            status: run.termination.status, output: String(decoding: run.output, as: UTF8.self),
            errors: String(decoding: run.errors, as: UTF8.self))
    }

    /// Runs `program` to its end in `folder`; throws with its error output when it fails.
    public static func run(_ program: String, _ arguments: [String], in folder: URL) throws {
        let finished = try finish(program, arguments, in: folder)
        guard finished.status == 0 else {
            throw Failed(description: "\(program) \(arguments.prefix(1)) failed (\(finished.status)): \(finished.errors)")
        }
    }
}
