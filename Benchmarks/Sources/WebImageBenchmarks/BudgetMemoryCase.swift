import Foundation
import Synchronization
import WebImage
import WebImageFixtures
import WebImageResources
import WebImageTestServer

#if canImport(Glibc)
    import Glibc
#endif

/// Peak memory with and without the memory budget: N loads of one file at once (distinct URLs, so N decodes)
/// through a manager with the memory budget or without, each run in a fresh process
/// (its own loopback server) whose peak RSS is read at the end: 12 MP JPEGs, and the
/// small files that decode huge (a 23 KB GIF of 1,000 frames on a 256x256 screen, a PNG
/// of 8000x8000 of one colour). The memory cache is kept tiny so that only decoding
/// counts. The decodes run on the manager's pool (two threads here), which bounds them
/// too: the budget is what bounds them when the cores outnumber what memory allows. The
/// GIF is also loaded as a thumbnail: scaled to 128 px its 1,000 frames still come to
/// 62.5 MiB, over the 32 MiB from which an animation's frames are mapped one by one.
enum BudgetMemoryCase {
    static let name = "Peak memory with and without the memory budget"
    static let budget = 256 << 20

    struct Run {
        var label: String
        var file: String
        var loads: Int
        var budget: Int?
        /// `ImageLoadContext.thumbnailPixelSize`, or nil for the full size.
        var pixelSize: Int? = nil
    }

    // MARK: Child side

    /// `--budget-probe FILE --loads N --budget BYTES|none [--pixel-size N] [--walk-frames]`:
    /// serves FILE, loads it N times at once (as thumbnails of N px with `--pixel-size`;
    /// each then asked for its last frame with `--walk-frames`), prints the peak RSS and
    /// the baseline RSS before the loads, in KiB.
    static func runChild(input: String, loads: Int, budget: Int?, pixelSize: Int?, walksFrames: Bool = false) throws {
        let file = URL(fileURLWithPath: input)
        let server = try LoopbackBench.start(documentRoot: file.deletingLastPathComponent())
        defer { LoopbackBench.stop(server) }
        var configuration = WebImageConfiguration(cacheDirectory: nil)
        configuration.memoryCache = MemoryCacheConfiguration(costLimit: 1)
        configuration.manager.memoryBudget = budget.map { MemoryBudget(capacity: $0) }
        let manager = ImageManager(configuration: configuration)
        let before = currentRSSKiB()
        let requests = (0..<loads).map {
            ImageRequest(
                url: server.url("/files/\(file.lastPathComponent)?n=\($0)"),
                context: ImageLoadContext(thumbnailPixelSize: pixelSize))
        }
        let loaded = try LoopbackBench.blocking {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for request in requests {
                    group.addTask {
                        let image = try await manager.image(for: request)
                        if walksFrames { _ = try image.frame(at: image.frameCount - 1) }
                        return image.frameCount
                    }
                }
                var count = 0
                for try await frames in group where frames > 0 { count += 1 }
                return count
            }
        }
        guard loaded == loads else { throw Baseline.Failure(description: "budget probe: \(loaded) of \(loads) loaded") }
        print("rss_kib \(before) \(MemoryProbe.peakRSSKiB())")
    }

    /// The resident set now, in KiB (VmRSS).
    static func currentRSSKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kib
    }

    // MARK: Parent side

    static func run(jpeg: Data) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-budget-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = RepeatedStructures.gif(onePixelFrames: 1000, screen: 256)
        let blank = try ImageBitmap(width: 8000, height: 8000, pixelFormat: .rgba8) { bytes, _ in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        let png = try PNGFixtureEncoder(compression: .smallest).encode(blank)
        try jpeg.write(to: folder.appendingPathComponent("photo-12mp.jpg"))
        try gif.write(to: folder.appendingPathComponent("bomb.gif"))
        try png.write(to: folder.appendingPathComponent("bomb.png"))
        // With two cores the pool decodes two images at a time whatever the budget, so the
        // budget shows where two decodes do not fit in it: 256 MiB against a GIF or PNG
        // that decodes to about 250 MiB.
        let runs = [
            Run(label: "64 x JPEG 4000x3000, no budget", file: "photo-12mp.jpg", loads: 64, budget: nil),
            Run(label: "64 x JPEG 4000x3000, budget 256 MiB", file: "photo-12mp.jpg", loads: 64, budget: budget),
            Run(label: "64 x GIF \(gif.count / 1024) KB (1000 frames), no budget", file: "bomb.gif", loads: 64, budget: nil),
            Run(label: "64 x the same GIF, budget 256 MiB", file: "bomb.gif", loads: 64, budget: budget),
            Run(label: "64 x the same GIF to 128 px, no budget", file: "bomb.gif", loads: 64, budget: nil, pixelSize: 128),
            Run(label: "64 x the same GIF to 128 px, budget 256 MiB", file: "bomb.gif", loads: 64, budget: budget, pixelSize: 128),
            Run(label: "64 x PNG \(png.count / 1024) KB (8000x8000), no budget", file: "bomb.png", loads: 64, budget: nil),
            Run(label: "64 x the same PNG, budget 256 MiB", file: "bomb.png", loads: 64, budget: budget),
        ]
        print("\(name) (peak RSS of a fresh process, above its RSS before the loads):")
        var unbudgeted: Figure?
        for run in runs {
            let (before, peak) = try child(
                folder.appendingPathComponent(run.file).path, loads: run.loads, budget: run.budget, pixelSize: run.pixelSize)
            let above = Double(peak - before) / 1024
            print("  " + Report.pad(run.label, 46) + String(format: " %7.0f MiB", above))
            fflush(nil)
            // Each run with the budget follows the same loads without it: a row of both.
            guard let budget = run.budget else {
                unbudgeted = Figure(label: "no budget", value: above, unit: "MiB")
                continue
            }
            Findings.record(
                .server, "Peak memory: " + run.label, ours: Figure(label: "with the budget", value: above, unit: "MiB"), peer: unbudgeted,
                measured: Figure(label: "peak / budget", value: above / Double(budget >> 20), unit: "x"))
        }
        print("")
    }

    /// Runs one probe in a child of this executable; (RSS before the loads, peak), KiB.
    static func child(_ path: String, loads: Int, budget: Int?, pixelSize: Int?, walksFrames: Bool = false) throws -> (Int, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments =
            ["--budget-probe", path, "--loads", String(loads), "--budget", budget.map(String.init) ?? "none"]
            + (pixelSize.map { ["--pixel-size", String($0)] } ?? []) + (walksFrames ? ["--walk-frames"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(separator: "\n").first { $0.hasPrefix("rss_kib ") }?.split(separator: " ") ?? []
        guard process.terminationStatus == 0, fields.count == 3, let before = Int(fields[1]), let peak = Int(fields[2]) else {
            throw Baseline.Failure(description: "budget probe \(path) x\(loads) failed: \(output)")
        }
        return (before, peak)
    }
}
