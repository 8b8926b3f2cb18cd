import Foundation

/// The readable table and the optional JSON file.
enum Report {
    static func milliseconds(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return right ? fill + text : text + fill
    }

    /// One case's contenders in nanoseconds per operation: `name ns, name ns, ...`.
    static func nanosecondsPerOperation(_ result: CaseResult) -> String {
        zip(result.contenders, result.medians).map { name, seconds in
            "\(name) \(String(format: "%.1f", seconds * 1e9 / Double(result.imagesPerRun)))"
        }.joined(separator: ", ")
    }

    static func printFixtures(_ fixtures: BenchmarkFixtures) {
        print("Fixtures (WebImageFixtures, fixed seeds):")
        for item in fixtures.descriptions {
            let frames = item.frames > 1 ? " x\(item.frames)" : ""
            print(
                "  \(pad(item.name, 34)) \(item.width)x\(item.height)\(frames)  \(item.bytes) bytes  \(String(format: "%.2f", item.bitsPerPixel)) bits/pixel"
            )
        }
        print("")
    }

    static func printTable(_ results: [CaseResult]) {
        let header = [
            pad("case", 34), pad("ours ms", 10, right: true), pad("base ms", 10, right: true),
            pad("ours/base", 10, right: true), pad("ours /s", 11, right: true), pad("base /s", 11, right: true),
        ]
        print(header.joined(separator: " "))
        print(String(repeating: "-", count: 91))
        for result in results {
            let medians = result.medians
            let images = Double(result.imagesPerRun)
            print(
                [
                    pad(result.name, 34),
                    pad(milliseconds(medians[0]), 10, right: true),
                    pad(milliseconds(medians[1]), 10, right: true),
                    pad(String(format: "%.3f", medians[0] / medians[1]), 10, right: true),
                    pad(String(format: "%.1f", images / medians[0]), 11, right: true),
                    pad(String(format: "%.1f", images / medians[1]), 11, right: true),
                ].joined(separator: " "))
            for extra in 2..<medians.count {
                print(
                    "  \(result.contenders[extra]): \(milliseconds(medians[extra])) ms, "
                        + "\(String(format: "%.2f", medians[extra] / medians[1]))x the \(result.contenders[1]) time, "
                        + "\(String(format: "%.2f", medians[extra] / medians[0]))x ours")
            }
        }
        print("")
    }

    static func printSpeedup(full: CaseResult?, eighth: CaseResult?) -> Double? {
        guard let full, let eighth else { return nil }
        let speedup = full.medians[0] / eighth.medians[0]
        print("JPEG 1/8 speedup, ours full / ours at 500 px: \(String(format: "%.2f", speedup))x (goal >= 1.7x)")
        return speedup
    }

    static func printMemory(_ peaks: [MemoryProbe.Mode: Int]) {
        let base = peaks[.baseline] ?? 0
        let full = peaks[.jpegFull] ?? 0
        let eighth = peaks[.jpegEighth] ?? 0
        func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
        print("Peak RSS of one decode in a fresh process (VmHWM):")
        print("  process + file read, no decode: \(mib(base))")
        print("  JPEG 4000x3000 full:            \(mib(full))  (+\(mib(full - base)) over the floor)")
        print("  JPEG 4000x3000 at 500 px:       \(mib(eighth))  (+\(mib(eighth - base)) over the floor)")
        if full > base {
            print(
                "  1/8 decode's share of the full decode's memory, above the floor: "
                    + String(format: "%.3f", Double(eighth - base) / Double(full - base)))
        }
        print("")
    }

    struct JSONReport: Codable {
        struct Case: Codable {
            var name: String
            var contenders: [String]
            var medianSeconds: [Double]
            var ratioOursToBare: Double
            var imagesPerSecond: [Double]
            var samples: [[Double]]
        }
        var rounds: Int
        var cases: [Case]
        var jpegEighthSpeedup: Double?
        var peakRSSKiB: [String: Int]
    }

    static func writeJSON(_ results: [CaseResult], rounds: Int, speedup: Double?, peaks: [MemoryProbe.Mode: Int], to path: String) throws {
        let report = JSONReport(
            rounds: rounds,
            cases: results.map { result in
                let medians = result.medians
                return JSONReport.Case(
                    name: result.name, contenders: result.contenders, medianSeconds: medians,
                    ratioOursToBare: medians[0] / medians[1],
                    imagesPerSecond: medians.map { Double(result.imagesPerRun) / $0 },
                    samples: result.samples
                )
            },
            jpegEighthSpeedup: speedup,
            peakRSSKiB: Dictionary(uniqueKeysWithValues: peaks.map { ($0.key.rawValue, $0.value) })
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    }
}
