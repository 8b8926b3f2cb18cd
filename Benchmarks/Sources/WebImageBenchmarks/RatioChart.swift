import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// results.svg: every row with a goal as a bar from its goal to its figure, on one
/// logarithmic scale where 1 is the goal and the left side meets it, whichever way the
/// goal points (a `≤` goal reads figure / bound, a `≥` goal bound / figure).
enum RatioChart {
    static let width = 1080.0
    static let labelRight = 470.0
    static let plotLeft = 480.0
    static let plotRight = 790.0
    static let rowHeight = 20.0
    static let sectionHeight = 30.0
    static let top = 84.0
    /// The scale's ends: a figure beyond is drawn at the end, with an arrow.
    static let lowest = 1.0 / 20
    static let highest = 5.0
    static let ticks = [0.05, 0.1, 0.25, 0.5, 1, 2, 5]

    static func render(_ report: RunReport) -> String {
        let rows = report.judged
        var body: [String] = []
        var y = top
        var section: Section?
        for row in rows {
            if row.section != section {
                section = row.section
                body.append(text(8, y + sectionHeight - 10, row.section.rawValue, size: 13, weight: "bold"))
                y += sectionHeight
            }
            body += bar(row, centre: y + rowHeight / 2)
            y += rowHeight
        }
        let height = y + 24
        let machine = report.machine
        let subtitle =
            "\(machine.cpu), \(machine.cores) cores, \(report.run.date)"
            + (report.run.full ? "" : " (a partial run)")
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            text(
                8, 22, "Benchmarks against their goals: \(report.count(.pass)) met, \(report.count(.miss)) missed", size: 16, weight: "bold"
            ),
            text(8, 42, subtitle, size: 12, fill: "#555"),
            text(
                plotLeft, 56, "each figure against its goal: 1 is the goal, left of it met (log scale)", size: 11, fill: "#555"),
        ]
        for tick in ticks {
            let x = position(tick)
            svg.append(line(x, top - 6, x, y, stroke: tick == 1 ? "#222" : "#ddd", dashed: tick == 1))
            svg.append(text(x, top - 10, String(format: "%g", tick), size: 10, anchor: "middle"))
        }
        svg += body
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// One row: its label, the bar from the goal to the figure, and the figure and goal.
    static func bar(_ row: Row, centre: Double) -> [String] {
        guard let goal = row.goal, let measured = row.measured else { return [] }
        let relative = goal.relative(measured.value)
        let clamped = min(max(relative.isNaN ? highest : relative, lowest), highest)
        let (from, to) = (position(1), position(clamped))
        let colour = row.result == .pass ? "#2e7d32" : "#c62828"
        let label = row.peer.map { "\(row.name), beside \($0.label)" } ?? row.name
        var parts = [
            "<g><title>\(escape(label)): \(escape(measured.text)) (\(escape(measured.label))), goal \(escape(row.goalText ?? ""))</title>",
            text(labelRight, centre + 4, shortened(label, to: 74), size: 11, anchor: "end"),
            "<rect x=\"\(format(min(from, to)))\" y=\"\(format(centre - 6))\" width=\"\(format(max(abs(to - from), 2)))\" "
                + "height=\"12\" fill=\"\(colour)\"/>",
        ]
        if clamped != relative {
            let arrow = clamped == lowest ? "◀" : "▶"
            parts.append(text(to + (clamped == lowest ? -10 : 10), centre + 4, arrow, size: 10, fill: colour, anchor: "middle"))
        }
        parts.append(text(plotRight + 16, centre + 4, "\(measured.text)  (goal \(row.goalText ?? ""))", size: 11, fill: colour))
        parts.append("</g>")
        return parts
    }

    static func position(_ value: Double) -> Double {
        plotLeft + (log(value) - log(lowest)) / (log(highest) - log(lowest)) * (plotRight - plotLeft)
    }

    static func text(
        _ x: Double, _ y: Double, _ content: String, size: Int, weight: String = "normal", fill: String = "#222", anchor: String = "start"
    ) -> String {
        "<text x=\"\(format(x))\" y=\"\(format(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\" "
            + "text-anchor=\"\(anchor)\">\(escape(content))</text>"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, dashed: Bool) -> String {
        "<line x1=\"\(format(x1))\" y1=\"\(format(y1))\" x2=\"\(format(x2))\" y2=\"\(format(y2))\" stroke=\"\(stroke)\""
            + (dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>"
    }

    static func shortened(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(count - 1)) + "…"
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
