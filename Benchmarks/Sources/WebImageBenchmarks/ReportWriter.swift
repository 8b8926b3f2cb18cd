import Foundation

/// Writes a run's report into a folder: RESULTS.md, RESULTS.json and the chart
/// results.svg that RESULTS.md shows.
enum ReportWriter {
    static let markdownName = "RESULTS.md"
    static let jsonName = "RESULTS.json"
    static let chartName = "results.svg"

    /// Writes the three files. A run that is not full (`--quick`, `--only`) does not
    /// write over a full run's report: it stops with a message instead.
    static func write(_ report: RunReport, to folder: URL) throws {
        let json = folder.appendingPathComponent(jsonName)
        if !report.run.full, holdsFullRun(json) {
            throw Baseline.Failure(
                description: "\(folder.path) holds a full run's report; a --quick or --only run writes its report elsewhere (--report DIR)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try (encoder.encode(report) + Data("\n".utf8)).write(to: json)
        try Data(MarkdownReport.render(report, chart: chartName, json: jsonName).utf8).write(
            to: folder.appendingPathComponent(markdownName))
        try Data(RatioChart.render(report).utf8).write(to: folder.appendingPathComponent(chartName))
    }

    /// Whether the JSON file there is a full run's.
    static func holdsFullRun(_ json: URL) -> Bool {
        struct Header: Decodable {
            struct Run: Decodable { var full: Bool }
            var run: Run
        }
        guard let data = try? Data(contentsOf: json), let header = try? JSONDecoder().decode(Header.self, from: data) else { return false }
        return header.run.full
    }
}
