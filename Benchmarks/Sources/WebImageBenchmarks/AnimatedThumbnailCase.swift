import Foundation
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures
import WebImageWebP

#if canImport(Glibc)
    import Glibc
#endif

/// An animated thumbnail, as an image service makes one: a 300-frame 480x360 GIF made
/// into an animated WebP that fits 200 px, beside pyvips (`thumbnail_buffer` with
/// `n=-1`, then `webpsave_buffer`, one libvips thread). Each side runs in a fresh process
/// of its own, three times: the CPU time of the work (getrusage) and the peak resident set
/// above the process's own before it (the peak restarted after a warm-up, as
/// ``MemoryProbe`` does), medians. Both write lossy WebP at quality 75: pyvips at its
/// default effort 4, ours at `WebPEncoder`'s default effort for animations, 2
/// (`WebPEncoder.animationMethod`; the Encoding article says what it costs in quality).
enum AnimatedThumbnailCase {
    static let name = "Animated thumbnail: 300-frame 480x360 GIF to animated WebP at 200 px"
    static let vipsPeer = "pyvips thumbnail_buffer n=-1 + webpsave_buffer, 1 thread"
    static let runs = 3
    static let fit = 200

    /// What one run measured.
    struct Run {
        var cpuSeconds: Double
        var peakAboveFloorKiB: Int
        var frames: Int
        var bytes: Int
    }

    static func run() throws {
        let gif = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 480, height: 360, frameCount: 300))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-animated-\(getpid()).gif")
        try gif.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        print("\(name) (\(gif.count / 1024) KB; each run a fresh process, median of \(runs)):")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let ours = try (0..<runs).map { _ in try child(executable, ["--animated-thumbnail", file.path]) }
        let vips = try? (0..<runs).map { _ in try child("/usr/bin/env", ["python3", "-c", vipsScript(file.path)]) }
        print("  " + Report.pad("side", 60) + "   CPU s   peak MiB   frames     KB")
        for (label, runs) in [("ours (GIFDecoder maxPixelSize 200 + WebPEncoder q75, method 2)", ours), (vipsPeer, vips ?? [])]
        where !runs.isEmpty {
            let run = median(runs)
            print(
                "  " + Report.pad(label, 60)
                    + String(
                        format: " %7.2f %10.1f %8d %6d", run.cpuSeconds, Double(run.peakAboveFloorKiB) / 1024, run.frames, run.bytes / 1024)
            )
        }
        let our = median(ours)
        guard our.frames == 300 else { throw Baseline.Failure(description: "\(name): ours wrote \(our.frames) frames") }
        let ourCPU = Figure(label: "ours", value: our.cpuSeconds, unit: "s")
        let ourPeak = Figure(label: "ours", value: Double(our.peakAboveFloorKiB) / 1024, unit: "MiB")
        guard let vips, !vips.isEmpty else {
            Findings.peerLeftOut(vipsPeer, reason: "python3 could not import pyvips (make bench-peers installs it)")
            Findings.skip(.thumbnails, "\(name), CPU beside pyvips", reason: Findings.whyLeftOut(vipsPeer))
            Findings.record(.thumbnails, "\(name), peak memory", ours: ourPeak, peer: nil, measured: ourPeak)
            print("")
            return
        }
        let peer = median(vips)
        Findings.record(
            .thumbnails, "\(name), CPU", ours: ourCPU, peer: Figure(label: vipsPeer, value: peer.cpuSeconds, unit: "s"),
            measured: Figure(label: "ours / peer", value: our.cpuSeconds / peer.cpuSeconds, unit: "x"), goal: .atMost(0.8))
        Findings.record(
            .thumbnails, "\(name), peak memory", ours: ourPeak,
            peer: Figure(label: vipsPeer, value: Double(peer.peakAboveFloorKiB) / 1024, unit: "MiB"),
            measured: Figure(
                label: "ours / peer", value: Double(our.peakAboveFloorKiB) / Double(max(1, peer.peakAboveFloorKiB)), unit: "x"),
            goal: .atMost(0.5))
        print(
            String(
                format: "  ours / pyvips: CPU %.2fx, peak memory %.2fx", our.cpuSeconds / peer.cpuSeconds,
                Double(our.peakAboveFloorKiB) / Double(max(1, peer.peakAboveFloorKiB))))
        print("")
    }

    /// Child side (`--animated-thumbnail FILE`): the same work once on a small GIF (code and
    /// runtime in memory), the peak restarted, then the work on `input`; prints the figures.
    static func runChild(input: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: input))
        let small = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 48, height: 36, frameCount: 3))
        consume(try thumbnail(small))
        let floor = MemoryProbe.resetPeakRSSKiB()
        let before = MemoryProbe.processCPUSeconds()
        let webp = try thumbnail(data)
        let cpu = MemoryProbe.processCPUSeconds() - before
        let peak = MemoryProbe.peakRSSKiB() - floor
        let frames = try WebPDecoder().decode(webp, options: .default).frameCount
        print("result \(cpu) \(peak) \(frames) \(webp.count)")
    }

    /// The GIF decoded to fit 200 px (frames composed on demand) and written as an
    /// animated WebP frame by frame.
    private static func thumbnail(_ data: Data) throws -> Data {
        let image = try GIFDecoder().decode(data, options: DecodeOptions(maxPixelSize: fit))
        return try WebPEncoder(quality: 75, method: 4).encode(image)
    }

    private static func vipsScript(_ path: String) -> String {
        """
        import os, resource
        os.environ["VIPS_CONCURRENCY"] = "1"
        import pyvips
        pyvips.cache_set_max(0)

        def work(data):
            image = pyvips.Image.thumbnail_buffer(data, \(fit), option_string="n=-1")
            webp = image.webpsave_buffer()
            return pyvips.Image.new_from_buffer(webp, "", n=-1).get_n_pages(), len(webp)

        def cpu():
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        def rss(field):
            for line in open("/proc/self/status"):
                if line.startswith(field):
                    return int(line.split()[1])

        small = pyvips.Image.black(48, 36).gifsave_buffer()
        work(small)
        data = open("\(path)", "rb").read()
        open("/proc/self/clear_refs", "w").write("5")
        floor = rss("VmHWM:")
        before = cpu()
        frames, size = work(data)
        print("result", cpu() - before, rss("VmHWM:") - floor, frames, size)
        """
    }

    private static func child(_ executable: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(separator: "\n").first { $0.hasPrefix("result ") }?.split(separator: " ") ?? []
        guard process.terminationStatus == 0, fields.count == 5, let cpu = Double(fields[1]), let peak = Int(fields[2]),
            let frames = Int(fields[3]), let bytes = Int(fields[4])
        else { throw Baseline.Failure(description: "\(name): a run of \(arguments.first ?? executable) failed: \(output)") }
        return Run(cpuSeconds: cpu, peakAboveFloorKiB: peak, frames: frames, bytes: bytes)
    }

    private static func median(_ runs: [Run]) -> Run {
        let byCPU = runs.map(\.cpuSeconds).sorted()
        let byPeak = runs.map(\.peakAboveFloorKiB).sorted()
        return Run(
            cpuSeconds: byCPU[byCPU.count / 2], peakAboveFloorKiB: byPeak[byPeak.count / 2], frames: runs[0].frames, bytes: runs[0].bytes)
    }
}
