import Foundation

/// A Python process that runs a peer's operation on request, so that Pillow is timed
/// in the same run as ours: each request runs it `count` times in Python and answers
/// when done, so the pipe's round trip is spread over the batch.
final class PythonPeer {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts `python3` with `setup` (which defines `run()`), or returns `nil` when Python
    /// or a module it imports is missing, noting the reason under the peer's name (the
    /// name of its contender, or of the row it would have made).
    init?(setup: String, peer: String) {
        let script =
            setup + """

                import sys
                sys.stdout.write("ready\\n"); sys.stdout.flush()
                for line in sys.stdin:
                    for _ in range(int(line)): run()
                    sys.stdout.write("done\\n"); sys.stdout.flush()
                """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            Findings.peerLeftOut(peer, reason: "no python3 (\(error))")
            return nil
        }
        guard readLine() == "ready" else {
            Findings.peerLeftOut(peer, reason: "python3 could not import what it needs (make bench-peers installs it)")
            process.terminate()
            return nil
        }
    }

    /// The Python process, for its CPU time.
    var processIdentifier: Int32 { process.processIdentifier }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Runs the peer's operation `count` times.
    func run(_ count: Int) throws {
        input.fileHandleForWriting.write(Data("\(count)\n".utf8))
        guard readLine() == "done" else { throw Baseline.Failure(description: "the Python peer stopped") }
    }

    private func readLine() -> String? {
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { return nil }
            if byte.first == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}
