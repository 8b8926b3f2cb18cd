import Foundation

/// The console's table and summaries.
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

    /// Ours at 500 px against ours at full size: entropy decoding cannot be skipped, the
    /// inverse DCT, upsampling and colour conversion can; at least 1.7x faster.
    static func recordSpeedup(full: CaseResult?, eighth: CaseResult?) {
        guard let full, let eighth else { return }
        Findings.record(
            .decode, "JPEG 4000x3000 at 500 px: against full size", ours: .seconds("ours at 500 px", eighth.medians[0]),
            peer: .seconds("ours at full size", full.medians[0]),
            measured: Figure(label: "full / 500 px, time", value: full.medians[0] / eighth.medians[0], unit: "x"), goal: .atLeast(1.7))
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
            Findings.record(
                .decode, "JPEG 4000x3000 at 500 px: peak RSS above the process floor",
                ours: Figure(label: "at 500 px", value: Double(eighth - base) / 1024, unit: "MiB"),
                peer: Figure(label: "ours at full size", value: Double(full - base) / 1024, unit: "MiB"),
                measured: Figure(label: "500 px / full size", value: Double(eighth - base) / Double(full - base), unit: "x"))
        }
        print("")
    }
}
