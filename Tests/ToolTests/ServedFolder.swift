import Foundation
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `webimage serve DIR` running as a child process, as a user would start it in another
/// terminal: the tests fetch from the URLs it prints and stop it with a signal.
///
/// (The test target does not link the loopback server itself; running the program keeps
/// `serve` under test as well.)
final class ServedFolder {
    struct NotStarted: Error, CustomStringConvertible {
        let description: String
    }

    let process: SpawnedProcess
    /// What `serve` printed up to and including its "stop with" line.
    let announcement: [String]
    let baseURL: URL
    private let output: FileHandle
    private let errors: FileHandle

    /// Starts `webimage serve folder arguments...` and waits (at most 20 s) until it
    /// has printed its URLs.
    convenience init(_ folder: URL, arguments: [String] = []) throws {
        try self.init(running: ["serve", folder.path] + arguments)
    }

    /// Starts `webimage arguments...`, a command that prints a base URL and then "stop
    /// with" (`serve`, `proxy`), and waits (at most 20 s) for those lines.
    init(running arguments: [String]) throws {
        process = try SpawnedProcess(try WebImageProgram.locate().path, arguments, output: .pipe, errors: .pipe)
        output = process.output!
        errors = process.errors!
        // A server that never gets ready is stopped, which ends the read below with EOF.
        let watchdog = DispatchWorkItem { [process] in process.signal(SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        defer { watchdog.cancel() }

        var text = ""
        while !text.contains("stop with") {
            let chunk = output.availableData
            if chunk.isEmpty {
                let status = process.waitForExit().status
                let stderr = String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
                throw NotStarted(
                    description: "\(arguments[0]) ended (status \(status)) before printing its URLs: \(text) \(stderr)")
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
        announcement = text.split(separator: "\n").map(String.init)
        guard let base = Self.value(of: "base URL", in: announcement).flatMap(URL.init(string:)) else {
            process.stop()
            throw NotStarted(description: "no base URL in \(announcement)")
        }
        baseURL = base
    }

    /// The text after `label: ` on the first line that starts so.
    static func value(of label: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix(label + ": ") }.map { String($0.dropFirst(label.count + 2)) }
    }

    func value(of label: String) -> String? { Self.value(of: label, in: announcement) }

    /// The URL of a served file.
    func url(_ name: String) -> String { baseURL.absoluteString + name }

    /// Sends `signal` (SIGTERM by default) and waits for the program to end.
    ///
    /// - Returns: its exit status and what it printed after the announcement.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> (status: Int32, output: String) {
        process.signal(signal)
        let rest = output.readDataToEndOfFile()
        return (process.waitForExit().status, String(decoding: rest, as: UTF8.self))
    }
}

/// A folder of test images served for the length of `body`; the folder holds the
/// inputs of ``DecodeCommandTests/makeInputs(in:)`` (photo.jpg 320x200, icon.png 64x48,
/// spin.gif with 5 frames, notes.txt).
func withServedInputs<R>(arguments: [String] = [], _ body: (ServedFolder, URL) throws -> R) throws -> R {
    let folder = try WebImageProgram.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = folder.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    _ = try DecodeCommandTests.makeInputs(in: files)
    let server = try ServedFolder(files, arguments: arguments)
    defer { server.stop() }
    return try body(server, folder)
}
