import Foundation
import WebImageFixtures

#if canImport(Glibc)
    import Glibc
#endif

/// Peak memory of six concurrent loads of a long GIF through a manager, against a still
/// of the same screen: an animation composed on demand holds its first frame and its
/// compressed file whatever its length, so the 1,000-frame GIF and the one of a quarter
/// of the frames cost the same. Each run is a fresh process (``BudgetMemoryCase/child``),
/// without a memory budget and with a tiny memory cache, so that only the loads count.
/// A last run asks each load for its last frame: every frame composed once, snapshots
/// kept within `FrameBuffering.snapshotByteLimit`.
enum AnimationMemoryCase {
    static let name = "Peak memory of long animations"
    static let loads = 6

    static func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-animation-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            ("still", RepeatedStructures.gif(onePixelFrames: 1, screen: 256)),
            ("250", RepeatedStructures.gif(onePixelFrames: 250, screen: 256)),
            ("1000", RepeatedStructures.gif(onePixelFrames: 1000, screen: 256)),
        ]
        print("\(name) (\(loads) loads at once, peak RSS of a fresh process above its RSS before the loads):")
        var above: [String: Double] = [:]
        for (label, gif) in files {
            let path = folder.appendingPathComponent("\(label).gif")
            try gif.write(to: path)
            let (before, peak) = try BudgetMemoryCase.child(path.path, loads: loads, budget: nil, pixelSize: nil)
            above[label] = Double(peak - before) / 1024
            print(
                "  "
                    + Report.pad("\(loads) x GIF 256x256, \(label == "still" ? "1 frame" : label + " frames") (\(gif.count / 1024) KB)", 46)
                    + String(format: " %7.1f MiB", above[label]!))
            fflush(nil)
        }
        // The same loads, each then composing its last frame: every frame decoded once,
        // snapshots taken on the way within their bound.
        let walkedPath = folder.appendingPathComponent("1000.gif").path
        let (walkedBefore, walkedPeak) = try BudgetMemoryCase.child(
            walkedPath, loads: loads, budget: nil, pixelSize: nil, walksFrames: true)
        let walked = Double(walkedPeak - walkedBefore) / 1024
        print("  " + Report.pad("\(loads) x the 1000 frames, each walked to its last", 46) + String(format: " %7.1f MiB", walked))
        let still = above["still"]!
        let long = above["1000"]! - still
        let quarter = above["250"]! - still
        print(String(format: "  1000 frames: %.1f MiB above the still (goal: at most 150); 250 frames: %.1f MiB", long, quarter))
        print("")
        Findings.record(
            .manager, "Peak memory: \(loads) loads of a 1,000-frame 256x256 GIF, above a still", ours: nil, peer: nil,
            measured: Figure(label: "above the still", value: long, unit: "MiB"), goal: .atMost(150))
        Findings.record(
            .manager, "Peak memory: \(loads) loads of a 1,000-frame 256x256 GIF, each walked to its last frame, above a still",
            ours: nil, peer: nil, measured: Figure(label: "above the still", value: walked - still, unit: "MiB"), goal: .atMost(150))
        // Both figures are a few MiB, where a ratio is noise: the goal is that they differ
        // by at most a tenth of the 150 MiB bound.
        Findings.record(
            .manager, "Peak memory: the same loads, 1,000 frames against 250",
            ours: Figure(label: "1,000 frames", value: long, unit: "MiB"), peer: Figure(label: "250 frames", value: quarter, unit: "MiB"),
            measured: Figure(label: "difference", value: abs(long - quarter), unit: "MiB"), goal: .atMost(15))
    }
}
