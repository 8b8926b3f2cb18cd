import Foundation

/// A program the test runs as a child process, its output read line by line as it comes
/// (on a thread of its own), so the test can await the next line with a deadline.
/// ``stop()`` terminates it if it still runs; call it in a `defer`.
final class ChildProcess: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    let process: Process
    let standardOutput: LineStream
    let standardError: LineStream

    init(_ process: Process) throws {
        self.process = process
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        standardOutput = LineStream(output.fileHandleForReading)
        standardError = LineStream(errors.fileHandleForReading)
        try process.run()
    }

    /// Kills the program (SIGKILL) if it runs, and waits for it. Not SIGTERM: a child
    /// inherits the signal mask of the test thread that spawned it, where SIGTERM may be
    /// blocked, and a cleanup must not depend on the program's own handling.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the program's end, at most `limit`; terminates it on timeout.
    func exitStatus(within limit: Duration) async throws -> Int32 {
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        self.process.waitUntilExit()
                        continuation.resume()
                    }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            if !first { stop() }
            group.cancelAll()  // ends the sleep at once when the program ended first
            await group.waitForAll()
            return first
        }
        guard ended else { throw Timeout(description: "the program did not end within \(limit)") }
        return process.terminationStatus
    }
}

/// The lines of one pipe, read on a thread of its own as they arrive.
final class LineStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    private var consumed = 0

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { append(String(decoding: pending, as: UTF8.self)) }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Every line read so far, for failure messages.
    var seen: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// The next line, or `nil` at the end of the output; throws when none came within
    /// `limit`. The wait blocks a global-queue thread, not the caller's.
    func next(within limit: Duration) async throws -> String? {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { [self] in
                continuation.resume(with: Result { try nextLine(before: deadline, limit: limit) })
            }
        }
    }

    /// Reads lines until one contains `text`, within `limit` in all.
    func line(containing text: String, within limit: Duration) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            guard let line = try await next(within: deadline - ContinuousClock.now) else {
                throw ChildProcess.Timeout(description: "the output ended without \"\(text)\"; lines: \(seen)")
            }
            if line.contains(text) { return line }
        }
    }

    private func append(_ line: String) {
        condition.lock()
        lines.append(line)
        condition.broadcast()
        condition.unlock()
    }

    private func nextLine(before deadline: Date, limit: Duration) throws -> String? {
        condition.lock()
        defer { condition.unlock() }
        while consumed == lines.count && !ended {
            if !condition.wait(until: deadline), consumed == lines.count, !ended {
                throw ChildProcess.Timeout(description: "no line within \(limit); lines so far: \(lines)")
            }
        }
        guard consumed < lines.count else { return nil }
        consumed += 1
        return lines[consumed - 1]
    }
}
