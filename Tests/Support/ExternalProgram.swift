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

    /// Runs `program` to its end in `folder`; throws with its error output when it fails.
    public static func run(_ program: String, _ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(
                description:
                    "\(program) \(arguments.prefix(1)) failed (\(process.terminationStatus)): \(String(decoding: text, as: UTF8.self))")
        }
    }
}
