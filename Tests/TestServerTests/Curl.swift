import Foundation
import Testing
import WebImageTestServer
import WebImageTestSupport

/// What one run of the curl program did.
struct CurlResult {
    var exitCode: Int32
    /// What curl wrote to standard output (the body, or `-w` text when `-o` is given).
    var output: String
    var outputBytes: [UInt8]
    var errorOutput: String
}

/// A temporary directory for one test, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        self.url = FileManager.default.temporaryDirectory
            .appendingPathComponent("wi-test-server-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the directory and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let file = self.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func path(_ name: String) -> String { self.url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: self.url) }
}

/// Runs `curl -sS --max-time 20 <arguments>` and waits for it.
func curl(_ arguments: [String], in directory: TemporaryDirectory) async throws -> CurlResult {
    let name = UUID().uuidString
    let stdoutPath = directory.path("\(name).stdout")
    let stderrPath = directory.path("\(name).stderr")
    let process = try SpawnedProcess(
        ExternalProgram.locate("curl") ?? "/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments,
        output: .file(URL(fileURLWithPath: stdoutPath)), errors: .file(URL(fileURLWithPath: stderrPath)))
    let termination = await process.exited()
    let outputBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stdoutPath)))
    let errorOutput = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    return CurlResult(
        exitCode: termination.status,
        output: String(decoding: outputBytes, as: UTF8.self),
        outputBytes: outputBytes,
        errorOutput: errorOutput
    )
}

/// byte i = UInt8(i % 251): what /bytes/<n> sends.
func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8($0 % 251) }
}
