import Foundation

/// RESULTS.md: the machine and the run, the count of goals met, the chart, a table of
/// rows per section, and every contender's median.
enum MarkdownReport {
    static func render(_ report: RunReport, chart: String, json: String) -> String {
        var lines = [
            "# Benchmark results",
            "",
            "Written by `make bench` (`Benchmarks/Sources/WebImageBenchmarks`) from the run it made: regenerate it, do not edit it.",
            "How each case is measured: [README.md](README.md). Every sample of every contender: [\(json)](\(json)).",
            "",
        ]
        if !report.run.full {
            let parts = [report.run.quick ? "`--quick`" : nil, report.run.only.map { "`--only \(cell($0))`" }].compactMap { $0 }
            lines += ["**A partial run (\(parts.joined(separator: ", "))): not the full report.**", ""]
        }
        lines += machineTable(report) + [""]
        lines.append(
            "**Goals: \(report.count(.pass)) met, \(report.count(.miss)) missed**; \(rows(report.count(.info))) without a goal, "
                + "\(rows(report.count(.skipped))) skipped.")
        let missed = report.judged.filter { $0.result == .miss }
        if !missed.isEmpty {
            lines += ["", "Missed:", ""]
            lines += missed.map { row in
                let peer = row.peer.map { ", beside \($0.label)" } ?? ""
                return "- \(row.section.rawValue): \(row.name)\(peer): \(measuredText(row)), goal \(row.goalText ?? "")"
            }
        }
        lines += ["", "![Each figure with a goal, against its goal](\(chart))", ""]
        for section in Section.allCases {
            let rows = report.ordered.filter { $0.section == section }
            guard !rows.isEmpty else { continue }
            lines += ["## \(section.rawValue)", "", "| Case | Ours | Peer | Measured | Goal | Result |", "|---|---|---|---|---|---|"]
            lines += rows.map(tableRow)
            lines.append("")
        }
        lines += timings(report)
        return lines.joined(separator: "\n") + "\n"
    }

    static func machineTable(_ report: RunReport) -> [String] {
        let machine = report.machine
        let run = report.run
        return [
            "| | |",
            "|---|---|",
            "| Date | \(run.date), the run took \(String(format: run.minutes < 10 ? "%.1f" : "%.0f", run.minutes)) minutes |",
            "| CPU | \(cell(machine.cpu)), \(machine.cores) cores (\(machine.usableCores) usable by the process) |",
            "| Memory | \(String(format: "%.1f", machine.memoryGiB)) GiB |",
            "| OS | \(cell(machine.os)), \(cell(machine.kernel)) |",
            "| Swift | \(cell(machine.swift)) |",
            "| Commit | \(run.commit.map { "`\($0)`" } ?? "unknown") |",
            "| Timing | median wall-clock of \(run.rounds) interleaved rounds (fewer for the slowest cases), ours and the peers in the same rounds |",
        ]
    }

    static func tableRow(_ row: Row) -> String {
        let figures = [row.ours, row.peer].map { figure in figure.map { "\(cell($0.label)): \($0.text)" } ?? "" }
        let result =
            switch row.result {
            case .pass: "pass"
            case .miss: "**miss**"
            case .info: "no goal"
            case .skipped: "skipped: \(cell(row.reason ?? ""))"
            }
        let measured = row.measured == nil ? "" : measuredText(row)
        return "| \(cell(row.name)) | \(figures[0]) | \(figures[1]) | \(cell(measured)) | \(row.goalText ?? "") | \(result) |"
    }

    static func measuredText(_ row: Row) -> String {
        guard let measured = row.measured else { return "" }
        return "\(measured.text) (\(measured.label))"
    }

    /// Every timed case's contenders: the median run, the rate, and the time against the
    /// case's first contender (ours).
    static func timings(_ report: RunReport) -> [String] {
        guard !report.cases.isEmpty else { return [] }
        var lines = [
            "## Every contender's median",
            "",
            "| Case | Contender | Median run | Per second | Time / ours |",
            "|---|---|---|---|---|",
        ]
        for timing in report.cases {
            for (index, (contender, median)) in zip(timing.contenders, timing.medianSeconds).enumerated() {
                lines.append(
                    "| \(index == 0 ? cell(timing.name) : "") | \(cell(contender)) | \(Figure.time(median)) | "
                        + "\(Figure.number(Double(timing.imagesPerRun) / median, unit: "")) | "
                        + "\(Figure.number(median / timing.medianSeconds[0], unit: "x")) |")
            }
        }
        return lines + [""]
    }

    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    /// Text for a table cell: no pipe or line break.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
