import Dispatch
import Foundation
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `webimage-load` and parses its last line
/// (`load: key=value key=value ...`).
struct LoadProcess {
    let status: Int32
    /// Standard output and standard error together, for failure messages.
    let output: String
    /// The summary line, or "" when there is none.
    let line: String

    /// The numeric fields of the summary line (`result=pass` and the like are left out).
    var figures: [String: Double]? {
        guard line.hasPrefix("load: ") else { return nil }
        var figures: [String: Double] = [:]
        for pair in line.dropFirst(6).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        return figures
    }

    /// Runs the program; one that is still running after `limit` is killed (and then
    /// has no summary line), so a hang fails the test instead of stalling the suite.
    static func run(_ arguments: [String], limit: DispatchTimeInterval = .seconds(180)) throws -> LoadProcess {
        // One pipe for both streams, read to the end before waiting, so neither can
        // fill up and block the program.
        let process = try SpawnedProcess(try BuiltExecutable.locate("webimage-load").path, arguments, output: .pipe)
        let watchdog = DispatchWorkItem { process.signal(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        let data = process.output!.readDataToEndOfFile()
        let status = process.waitForExit().status
        watchdog.cancel()
        let output = String(decoding: data, as: UTF8.self)
        let line = output.split(separator: "\n").last(where: { $0.hasPrefix("load: ") }).map(String.init) ?? ""
        return LoadProcess(status: status, output: output, line: line)
    }
}
