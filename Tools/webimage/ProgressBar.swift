import Foundation
import NIOConcurrencyHelpers
import WebImageCore

/// A one-line progress bar on standard error, redrawn in place:
/// `fetch [##########----------] 12/24  1 failed`.
///
/// It draws only when standard error is a terminal and there is more than one item, and
/// not before the work has run for a quarter of a second: a quick run or a redirected
/// log shows nothing. Updates may come from any thread.
final class ProgressBar: Sendable {
    private struct State {
        var completed = 0
        var failed = 0
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
    }

    private let label: String
    private let total: Int
    private let enabled: Bool
    private let start = ContinuousClock.now
    private let state = NIOLockedValueBox(State())

    /// Not drawn before this, so that short work does not flash a bar.
    private static let delay = Duration.milliseconds(250)
    /// Redraws are at most this often: a terminal is slow next to a memory hit.
    private static let interval = Duration.milliseconds(50)
    private static let width = 30

    init(label: String, total: Int, enabled: Bool = Console.standardErrorIsTerminal) {
        self.label = label
        self.total = total
        self.enabled = enabled && total > 1
    }

    /// Records the counts so far and redraws when it is time.
    func update(completed: Int, failed: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLockedValue { state in
            state.completed = completed
            state.failed = failed
            guard now - start >= Self.delay else { return nil }
            if let last = state.lastDraw, now - last < Self.interval, completed < total { return nil }
            state.lastDraw = now
            state.drawn = true
            return render(completed: completed, failed: failed)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Erases the bar, if it is drawn, so that a result prints on a clean line; the
    /// next update draws it again below.
    func erase() {
        guard enabled else { return }
        let drawn = state.withLockedValue { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    private func render(completed: Int, failed: Int) -> String {
        let filled = total == 0 ? Self.width : Self.width * completed / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        let failures = failed > 0 ? "  \(failed) failed" : ""
        return "\r\u{1B}[2K\(label) [\(bar)] \(completed)/\(total)\(failures)"
    }
}
