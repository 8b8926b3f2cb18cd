import Foundation

/// Everything the report files say about one run: the machine, the run, the rows and
/// every contender's samples. RESULTS.json is this, encoded.
struct RunReport: Codable, Sendable {
    struct Run: Codable, Sendable {
        /// When the run started, ISO 8601 in UTC.
        var date: String
        var minutes: Double
        var rounds: Int
        var quick: Bool
        /// `--only`'s text, when the run was narrowed to some cases.
        var only: String?
        /// The commit the run was built from.
        var commit: String?
        /// Every case at the full count of rounds: the report committed beside the
        /// benchmarks is of such a run.
        var full: Bool
    }

    /// One timed case: every contender's median and samples, in seconds.
    struct Timings: Codable, Sendable {
        var section: Section
        var name: String
        var imagesPerRun: Int
        var contenders: [String]
        var medianSeconds: [Double]
        var samples: [[Double]]
    }

    var machine: Machine
    var run: Run
    var rows: [Row]
    var cases: [Timings]

    init(machine: Machine, run: Run, rows: [Row], results: [CaseResult]) {
        self.machine = machine
        self.run = run
        self.rows = rows
        cases = results.map {
            Timings(
                section: $0.section, name: $0.name, imagesPerRun: $0.imagesPerRun, contenders: $0.contenders, medianSeconds: $0.medians,
                samples: $0.samples)
        }
    }

    /// The rows with a goal, in the report's order of sections.
    var judged: [Row] { ordered.filter { $0.result == .pass || $0.result == .miss } }

    /// Every row, by section in the report's order, in the order recorded within one.
    var ordered: [Row] { Section.allCases.flatMap { section in rows.filter { $0.section == section } } }

    func count(_ result: Row.Result) -> Int { rows.filter { $0.result == result }.count }
}

extension RunReport.Run {
    /// The time now, ISO 8601 in UTC, to the second.
    static func timestamp() -> String { ISO8601DateFormatter().string(from: Date()) }
}
