import Foundation
import WebImage

/// One pass of `webimage demo`: every sample loaded through a manager, with the source
/// each load should have come from (network when cold, memory or disk when warm).
struct DemoPass {
    let number: Int
    let title: String
    let expected: ImageSource
    /// In the samples' order. Images are kept only when asked (for the contact sheet).
    let reports: [LoadReport]
    /// From the first load's start to the last one's end.
    let milliseconds: Double

    /// Loads `requests` with `manager`, at most `concurrency` at a time.
    static func run(
        number: Int, title: String, expected: ImageSource, manager: ImageManager, requests: [ImageRequest],
        concurrency: Int, keepingImages: Bool
    ) async -> DemoPass {
        var reports: [LoadReport] = []
        let progress = ProgressBar(label: "pass \(number)", total: requests.count)
        let clock = ContinuousClock()
        let start = clock.now
        await LoadRunner(manager: manager, concurrency: concurrency).run(requests, progress: progress) { report in
            reports.append(keepingImages ? report : report.droppingImage())
        }
        let elapsed = Measurements.milliseconds(clock.now - start)
        progress.erase()
        return DemoPass(number: number, title: title, expected: expected, reports: reports, milliseconds: elapsed)
    }

    /// Why a report counts as a failure: the load failed, or the image came from
    /// somewhere else than this pass is about (a warm pass that went to the network
    /// shows a cache that does not work).
    func problem(of report: LoadReport) -> String? {
        if let error = report.error { return error }
        if let source = report.source, source != expected { return "expected \(expected), got \(source)" }
        return nil
    }

    var failures: Int { reports.filter { problem(of: $0) != nil }.count }

    /// The pass's heading and table: image, format, size, source, time, and a problem
    /// column when there is one.
    func render() -> String {
        let problems = reports.map(problem(of:))
        let anyProblem = problems.contains { $0 != nil }
        var table = TextTable(
            header: ["image", "format", "size", "source", "time"] + (anyProblem ? ["problem"] : []), rightAligned: [4])
        for (report, problem) in zip(reports, problems) {
            var size = report.sizeText ?? "-"
            if let frames = report.frames, frames > 1 { size += ", \(frames) frames" }
            let row = [
                report.url.lastPathComponent, report.format ?? "-", size, report.source?.rawValue ?? "-",
                Measurements.text(milliseconds: report.milliseconds),
            ]
            table.append(row + (anyProblem ? [problem ?? ""] : []))
        }
        return """
            pass \(number): \(title)
            \(table.render())
            total \(Measurements.text(milliseconds: milliseconds))
            """
    }
}
