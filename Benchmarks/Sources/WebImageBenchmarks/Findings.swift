import Foundation
import Synchronization

/// The part of the report a row belongs to, in the report's order.
enum Section: String, Codable, CaseIterable, Sendable {
    case decode = "Decode"
    case encode = "Encode"
    case thumbnails = "Thumbnails"
    case hostile = "Hostile files"
    case memoryCache = "Memory cache"
    case diskCache = "Disk cache"
    case transport = "Transport"
    case registry = "Registry, queue and coalescing"
    case manager = "Manager"
    case server = "Inside a server"
    case proxy = "Image proxy"
    case sharedCache = "Shared cache"
}

/// A bound a measured figure is held to.
struct Goal: Codable, Sendable {
    enum Comparison: String, Codable, Sendable {
        case atMost = "≤"
        case below = "<"
        case atLeast = "≥"
        case above = ">"
    }

    var comparison: Comparison
    var bound: Double

    static func atMost(_ bound: Double) -> Goal { Goal(comparison: .atMost, bound: bound) }
    static func below(_ bound: Double) -> Goal { Goal(comparison: .below, bound: bound) }
    static func atLeast(_ bound: Double) -> Goal { Goal(comparison: .atLeast, bound: bound) }
    static func above(_ bound: Double) -> Goal { Goal(comparison: .above, bound: bound) }

    func isMet(by value: Double) -> Bool {
        switch comparison {
        case .atMost: value <= bound
        case .below: value < bound
        case .atLeast: value >= bound
        case .above: value > bound
        }
    }

    /// The value against the bound, 1 at the bound and below 1 on the side that meets
    /// it, whichever way the goal points: the chart's scale.
    func relative(_ value: Double) -> Double {
        switch comparison {
        case .atMost, .below: bound == 0 ? (value <= 0 ? 0 : .infinity) : value / bound
        case .atLeast, .above: value == 0 ? .infinity : bound / value
        }
    }
}

/// One side of a row: who or what, and how much. A time is in seconds; `count` is the
/// operations one timed run did, so that the time of one can be shown too.
struct Figure: Codable, Sendable {
    var label: String
    var value: Double
    var unit: String
    var count: Int? = nil

    static func seconds(_ label: String, _ value: Double, count: Int? = nil) -> Figure {
        Figure(label: label, value: value, unit: "s", count: count.flatMap { $0 > 1 ? $0 : nil })
    }

    /// The value with its unit, a time in the unit that suits it.
    var text: String {
        guard unit == "s" else { return Self.number(value, unit: unit) }
        let time = Self.time(value)
        guard let count else { return time }
        return "\(time) (\(Self.time(value / Double(count))) each)"
    }

    static func time(_ seconds: Double) -> String {
        switch seconds.magnitude {
        case 1...: String(format: "%.2f s", seconds)
        case 1e-3...: String(format: "%.2f ms", seconds * 1e3)
        case 1e-6...: String(format: "%.2f µs", seconds * 1e6)
        default: String(format: "%.1f ns", seconds * 1e9)
        }
    }

    /// A number to about four significant digits (a count in whole units), with its unit;
    /// `trimmed` drops trailing zeros, for a goal's bound.
    static func number(_ value: Double, unit: String, trimmed: Bool = false) -> String {
        let whole = unit != "x" && value == value.rounded() && value.magnitude < 1e12
        let digits =
            switch value.magnitude {
            case _ where whole: "%.0f"
            case 1000...: "%.0f"
            case 100...: "%.1f"
            case 10...: "%.2f"
            default: "%.3f"
            }
        var number = String(format: digits, value)
        if trimmed, number.contains(".") {
            while number.hasSuffix("0") { number.removeLast() }
            if number.hasSuffix(".") { number.removeLast() }
        }
        switch unit {
        case "x": return number + "x"
        case "": return number
        default: return "\(number) \(unit)"
        }
    }
}

/// One line of the report: ours beside a peer, the figure a goal judges, and the
/// verdict; or a row left out, and why.
struct Row: Codable, Sendable {
    enum Result: String, Codable, Sendable {
        case pass, miss
        /// Measured, with no goal: shown for context.
        case info
        case skipped
    }

    var section: Section
    var name: String
    var ours: Figure?
    var peer: Figure?
    /// The figure the goal judges: a ratio (unit "x", its label saying of what) or a
    /// value of ours.
    var measured: Figure?
    var goal: Goal?
    /// Why the row was left out.
    var reason: String?
    var result: Result

    /// The goal as text, `≤ 1.05x`.
    var goalText: String? {
        goal.map { "\($0.comparison.rawValue) \(Figure.number($0.bound, unit: measured?.unit ?? "x", trimmed: true))" }
    }
}

/// What a case compares ours with: one of its contenders, by time (ours / the peer's)
/// or by rate (the peer's time / ours: ours' rate over the peer's), and the goal for
/// that ratio, if the case has one.
struct Comparison: Sendable {
    enum Reading: Sendable { case time, rate }

    /// The contender's name; `nil`: the case's second contender.
    var peer: String?
    var reading: Reading
    var goal: Goal?

    static func time(_ goal: Goal? = nil, against peer: String? = nil) -> Comparison {
        Comparison(peer: peer, reading: .time, goal: goal)
    }

    static func rate(_ goal: Goal? = nil, against peer: String? = nil) -> Comparison {
        Comparison(peer: peer, reading: .rate, goal: goal)
    }

    /// The goal of a decode or an encode beside the same C library's own call: at most
    /// 1.05x its time.
    static let sameLibrary = time(.atMost(1.05))
}

/// The rows of the run, gathered as the cases finish; the report is written from them.
/// Each row is printed as it is recorded.
enum Findings {
    private static let rows = Mutex<[Row]>([])
    /// Peers that did not run, and why, by name: a comparison with one becomes a
    /// skipped row with this reason.
    private static let leftOut = Mutex<[String: String]>([:])

    static var all: [Row] { rows.withLock { $0 } }

    /// Records a measured row; with a goal, its verdict.
    static func record(
        _ section: Section, _ name: String, ours: Figure?, peer: Figure?, measured: Figure, goal: Goal? = nil
    ) {
        let result: Row.Result = goal.map { $0.isMet(by: measured.value) ? .pass : .miss } ?? .info
        add(Row(section: section, name: name, ours: ours, peer: peer, measured: measured, goal: goal, result: result))
    }

    /// Records a row left out, once.
    static func skip(_ section: Section, _ name: String, reason: String) {
        let row = Row(section: section, name: name, reason: reason, result: .skipped)
        guard !rows.withLock({ $0.contains { $0.name == name && $0.reason == reason } }) else { return }
        add(row)
    }

    /// Notes that the peer of this name did not run, for the comparisons with it.
    static func peerLeftOut(_ peer: String, reason: String) {
        print("\(peer): left out, \(reason)")
        leftOut.withLock { $0[peer] = reason }
    }

    /// Why the peer of this name did not run.
    static func whyLeftOut(_ peer: String) -> String { leftOut.withLock { $0[peer] } ?? "it did not run" }

    private static func add(_ row: Row) {
        rows.withLock { $0.append(row) }
        print("  " + line(row))
    }

    /// A row as one line of the console.
    static func line(_ row: Row) -> String {
        let verdict = Report.pad(row.result == .miss ? "MISS" : row.result.rawValue, 8)
        guard let measured = row.measured else { return "\(verdict) \(row.name): \(row.reason ?? "")" }
        let peer = row.peer.map { " [\($0.label)]" } ?? ""
        let goal = row.goalText.map { " (goal \($0))" } ?? ""
        return "\(verdict) \(row.name)\(peer): \(measured.label) \(measured.text)\(goal)"
    }

    /// The rows of the table's cases: each of a case's comparisons, ours beside that
    /// contender's median.
    static func recordCases(_ results: [CaseResult]) {
        for result in results {
            for comparison in result.comparisons {
                let peerName = comparison.peer ?? (result.contenders.count > 1 ? result.contenders[1] : "")
                guard let index = result.contenders.firstIndex(of: peerName), index > 0 else {
                    skip(result.section, "\(result.name) beside \(peerName)", reason: whyLeftOut(peerName))
                    continue
                }
                let (ours, peer) = (result.medians[0], result.medians[index])
                let measured =
                    switch comparison.reading {
                    case .time: Figure(label: "ours / peer, time", value: ours / peer, unit: "x")
                    case .rate: Figure(label: "ours / peer, rate", value: peer / ours, unit: "x")
                    }
                record(
                    result.section, result.name, ours: .seconds(result.contenders[0], ours, count: result.imagesPerRun),
                    peer: .seconds(peerName, peer, count: result.imagesPerRun), measured: measured, goal: comparison.goal)
            }
        }
    }
}
