import CBaselines
import Foundation
import WebImageCore
import WebImageWebP

/// The WebP cases: ours beside libwebp's own calls on the same bytes, into the
/// same kind of buffer.
enum WebPCases {
    static let quarter = DecodeOptions(maxPixelSize: 500)
    static let names = ["WebP 2000x1500 lossy", "WebP 2000x1500 lossless", "WebP 2000x1500 at 500 px", "WebP 480x360, 30 frames"]

    static func all(_ fixtures: BenchmarkFixtures) -> [BenchmarkCase] {
        let lossy = fixtures.webpLossy
        let lossless = fixtures.webpLossless
        let animation = fixtures.webpAnimation
        return [
            BenchmarkCase(
                section: .decode,
                name: names[0],
                contenders: [
                    Contender(name: "ours") { consume(try WebPDecoder().decode(lossy)) },
                    Contender(name: "WebPDecodeRGBA(Into)") { try Baseline.webp(lossy) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: names[1],
                contenders: [
                    Contender(name: "ours") { consume(try WebPDecoder().decode(lossless)) },
                    Contender(name: "WebPDecodeRGBA(Into)") { try Baseline.webp(lossless) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: names[2],
                contenders: [
                    Contender(name: "ours") { consume(try WebPDecoder().decode(lossy, options: quarter)) },
                    Contender(name: "WebPDecode scaled") { try Baseline.webp(lossy, scaledTo: (500, 375)) },
                ], comparisons: [.sameLibrary]),
            BenchmarkCase(
                section: .decode,
                name: names[3],
                contenders: [
                    // Every frame, as the baseline makes them (a long animation is otherwise composed on demand).
                    Contender(name: "ours") { consume(try WebPDecoder().decode(animation, options: wholeAnimation)) },
                    Contender(name: "WebPAnimDecoder + copies") { try Baseline.webpAnimation(animation) },
                ], imagesPerRun: 1, comparisons: [.time(.atMost(1.10))]),
        ]
    }

    static let wholeAnimation = DecodeOptions(frameBuffering: .allFrames)

    /// Checks that ours and libwebp agree on sizes and frames before anything is timed.
    static func verify(_ fixtures: BenchmarkFixtures) throws {
        let ours = try WebPDecoder().decode(fixtures.webpLossy, options: quarter)
        let bare = try Baseline.webp(fixtures.webpLossy, scaledTo: (500, 375))
        guard ours.width == bare.width, ours.height == bare.height else {
            throw Baseline.Failure(description: "WebP 1/4: ours is \(ours.size), libwebp \(bare.width)x\(bare.height)")
        }
        let frames = try WebPDecoder().decode(fixtures.webpAnimation, options: wholeAnimation).frames.count
        let bareFrames = try Baseline.webpAnimation(fixtures.webpAnimation).frames
        guard frames == 30, bareFrames == 30 else {
            throw Baseline.Failure(description: "WebP animation: ours has \(frames) frames, libwebp \(bareFrames)")
        }
    }

    /// Peak memory of the decodes in fresh processes, each above the process as it was
    /// after the same decode of a small file (so code and runtime metadata do not count):
    /// ours scaled against its output and against libwebp's own scaled decode (whose
    /// peak is the output plus libwebp's row buffers).
    static func printMemory(_ fixtures: BenchmarkFixtures) throws {
        let (peaks, floors) = try MemoryProbe.measureWithFloors(fixtures.webpLossy, modes: [.webpFull, .webpQuarter, .webpQuarterBare])
        func above(_ mode: MemoryProbe.Mode) -> Int? { peaks[mode].flatMap { peak in floors[mode].map { peak - $0 } } }
        guard let full = above(.webpFull), let quarter = above(.webpQuarter), let bare = above(.webpQuarterBare) else {
            Findings.skip(.decode, "WebP 2000x1500 at 500 px: peak RSS", reason: "a probe process reported no floor")
            return
        }
        let output = 500 * 375 * 4 / 1024
        print("Peak RSS of one WebP 2000x1500 decode in a fresh process (VmHWM above the process after a small decode):")
        print("  full size:                  +\(mib(full))  (the output alone: \(mib(2000 * 1500 * 4 / 1024)))")
        print("  at 500 px, ours:            +\(mib(quarter))  (the output alone: \(mib(output)))")
        print("  at 500 px, libwebp's call:  +\(mib(bare))  (the output and libwebp's own buffers)")
        // At most the output's 1.2x and libwebp's own buffers: libwebp's peak, plus a fifth of the output.
        let allowed = Double(bare) + 0.2 * Double(output)
        Findings.record(
            .decode, "WebP 2000x1500 at 500 px: peak RSS", ours: Figure(label: "ours", value: Double(quarter) / 1024, unit: "MiB"),
            peer: Figure(label: "WebPDecode scaled", value: Double(bare) / 1024, unit: "MiB"),
            measured: Figure(label: "ours", value: Double(quarter) / 1024, unit: "MiB"), goal: .atMost(allowed / 1024))
        print("")
    }

    private static func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
}
