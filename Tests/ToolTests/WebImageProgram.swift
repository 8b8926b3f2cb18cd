import Foundation
import WebImageTestSupport

/// Runs the built `webimage` program, as a user would.
struct WebImageProgram {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// The executable beside the test bundle (both live in the build products folder).
    static func locate() throws -> URL {
        try BuiltExecutable.locate("webimage")
    }

    /// Runs `webimage arguments...`; `environment` is added to the program's (this
    /// process's own is not changed).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let finished = try ExternalProgram.finish(try locate().path, arguments, environment: environment)
        return Run(status: finished.status, output: finished.output, errors: finished.errors)
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
