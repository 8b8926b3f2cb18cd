import Foundation
import WebImageTestSupport

/// A program the test runs as a child process, its output read line by line as it comes
/// (on a thread of its own), so the test can await the next line with a deadline.
/// ``stop()`` terminates it if it still runs; call it in a `defer`.
final class ChildProcess: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    let process: SpawnedProcess
    let standardOutput: LineStream
    let standardError: LineStream

    init(_ command: NetworkNamespaces.Command) throws {
        process = try SpawnedProcess(command.executable, command.arguments, output: .pipe, errors: .pipe)
        standardOutput = LineStream(process.output!)
        standardError = LineStream(process.errors!)
    }

    /// Kills the program (SIGKILL) if it runs, and waits for it: a cleanup must not
    /// depend on the program's own handling of SIGTERM.
    func stop() {
        process.signal(SIGKILL)
        process.waitForExit()
    }

    /// Waits for the program's end, at most `limit`; terminates it on timeout.
    func exitStatus(within limit: Duration) async throws -> Int32 {
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await self.process.exited()
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
        return process.waitForExit().status
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
