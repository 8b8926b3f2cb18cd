import Foundation
import WebImage

/// The run's figures, its verdict, and the two ways of printing them: a few lines for a
/// person and one `key=value` line for a test or a script (always the last line).
struct LoadSummary: Sendable {
    let options: LoadOptions
    let checks: LoadChecks
    let urlsUsed: Int
    /// GET requests that reached the server: fewer than the loads, by coalescing and the
    /// caches.
    let requests: Int
    let leftoverKeys: Int
    let leftoverDownloads: Int
    /// How long the registry and downloader took to empty after the last completion.
    let settleTime: Duration
    let baselineMiB: Double
    let peakMiB: Double
    let seconds: Double
    let timedOut: Bool

    var memoryHolds: Bool { peakMiB > 0 && peakMiB < Double(options.maxRSSMiB) }

    var passed: Bool {
        checks.loadsHold && !timedOut && leftoverKeys == 0 && leftoverDownloads == 0 && memoryHolds
    }

    /// Lines for a person: the figures, then what failed, if anything.
    var humanReadable: [String] {
        let sourceList = ImageSource.allKnown.map { "\($0)=\(checks.sources[$0, default: 0])" }.joined(separator: " ")
        var lines = [
            "loads:      \(checks.loads) over \(urlsUsed) of \(options.urls) URLs, \(options.concurrency) at once, seed \(options.seed)",
            "completed:  \(checks.completed) (duplicates \(checks.duplicates), missing \(checks.missing), events after completion \(checks.lateEvents))",
            "outcomes:   \(checks.succeeded) images (\(checks.succeededDespiteCancel) of them cancelled too late), \(checks.cancelled) cancelled, \(checks.failed) failed, \(checks.wrong) wrong",
            "sources:    \(sourceList) (callback loads); \(requests) requests reached the server",
            "afterwards: \(leftoverKeys) registry keys, \(leftoverDownloads) downloads (settled in \(Int(settleTime.seconds * 1000)) ms)",
            String(format: "memory:     peak %.0f MiB (bound %d MiB; %.0f MiB before the loads)", peakMiB, options.maxRSSMiB, baselineMiB),
            String(format: "time:       %.2f s (%.0f loads/s)", seconds, Double(checks.loads) / max(seconds, 0.001)),
        ]
        if timedOut { lines.append("FAIL: loads still running after \(Int(options.timeoutSeconds)) s") }
        if !memoryHolds { lines.append("FAIL: peak memory over the bound") }
        if leftoverKeys > 0 || leftoverDownloads > 0 { lines.append("FAIL: work left behind after every load completed") }
        lines += checks.failures.map { "FAIL: \($0)" }
        lines.append(passed ? "PASS" : "FAIL")
        return lines
    }

    /// The machine-readable line: `load:` then `key=value` pairs.
    var machineReadable: String {
        let fields: [(String, String)] = [
            ("loads", "\(checks.loads)"), ("urls", "\(options.urls)"), ("concurrency", "\(options.concurrency)"),
            ("completed", "\(checks.completed)"), ("duplicates", "\(checks.duplicates)"), ("missing", "\(checks.missing)"),
            ("late_events", "\(checks.lateEvents)"), ("succeeded", "\(checks.succeeded)"),
            ("late_cancels", "\(checks.succeededDespiteCancel)"), ("cancelled", "\(checks.cancelled)"),
            ("unexpected_cancels", "\(checks.unexpectedCancels)"), ("failed", "\(checks.failed)"), ("wrong", "\(checks.wrong)"),
            ("requests", "\(requests)"), ("leftover_keys", "\(leftoverKeys)"), ("leftover_downloads", "\(leftoverDownloads)"),
            ("timed_out", timedOut ? "1" : "0"),
            ("peak_rss_mib", String(format: "%.0f", peakMiB)), ("bound_mib", "\(options.maxRSSMiB)"),
            ("seconds", String(format: "%.2f", seconds)), ("result", passed ? "pass" : "fail"),
        ]
        return "load: " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }
}

extension ImageSource {
    /// Every source, in pipeline order, for the summary.
    static let allKnown: [ImageSource] = [.memory, .disk, .network, .revalidated, .stale]
}
