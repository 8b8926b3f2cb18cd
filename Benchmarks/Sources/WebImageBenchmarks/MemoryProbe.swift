import Foundation
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageWebP

#if canImport(Glibc)
    import Glibc
#endif

/// Peak memory of one decode, measured in a fresh process so that nothing else the
/// benchmark allocated (fixtures, earlier cases) counts.
enum MemoryProbe {
    /// What the child process does.
    enum Mode: String, CaseIterable {
        /// Reads the file and decodes nothing: the floor every other mode stands on.
        case baseline
        case jpegFull = "jpeg-full"
        case jpegEighth = "jpeg-eighth"
        case png
        case gif
        case webpFull = "webp-full"
        /// The 2000x1500 WebP scaled while decoding to 500x375.
        case webpQuarter = "webp-quarter"
        /// The same scaled decode by the bare libwebp call: its own buffers included.
        case webpQuarterBare = "webp-quarter-bare"

        /// The modes the main run reports.
        static let reported: [Mode] = [.baseline, .jpegFull, .jpegEighth]
    }

    /// Child side: read `input`, run `mode` once, print the peak RSS in KiB.
    static func runChild(_ mode: Mode, input: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: input))
        switch mode {
        case .baseline: consume(data)
        case .jpegFull: consume(try JPEGDecoder().decode(data))
        case .jpegEighth: consume(try JPEGDecoder().decode(data, options: Cases.eighth))
        case .png: consume(try PNGDecoder().decode(data))
        case .gif: consume(try GIFDecoder().decode(data))
        case .webpFull, .webpQuarter, .webpQuarterBare:
            // The same path once on a 64x48 file first, so that its code and the runtime's
            // metadata are in memory; then the peak restarts from here (clear_refs 5),
            // and only the decode's own buffers count.
            let small = try WebPFixtureEncoder(quality: 80).encode(try SyntheticImage.photo(width: 64, height: 48))
            try webp(mode, small, scaledTo: (16, 12))
            let floor = resetPeakRSSKiB()
            try webp(mode, data, scaledTo: (500, 375))
            print("floor_rss_kib \(floor)")
        }
        print("peak_rss_kib \(peakRSSKiB())")
    }

    private static func webp(_ mode: Mode, _ data: Data, scaledTo size: (width: Int, height: Int)) throws {
        switch mode {
        case .webpQuarter: consume(try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: size.width)))
        case .webpQuarterBare: try Baseline.webp(data, scaledTo: size)
        default: consume(try WebPDecoder().decode(data))
        }
    }

    /// Restarts the peak resident set (VmHWM) from the current one (Linux's
    /// `/proc/self/clear_refs`, value 5) and returns the current one, in KiB.
    static func resetPeakRSSKiB() -> Int {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return peakRSSKiB()
    }

    /// The process's peak resident set in KiB.
    ///
    /// VmHWM from /proc/self/status where there is one: getrusage's ru_maxrss survives
    /// execve on Linux, so a child spawned by this (fixture-laden) process would
    /// report the parent's peak. ru_maxrss elsewhere.
    static func peakRSSKiB() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        {
            return kib
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)  // KiB on Linux
    }

    /// User and system CPU time of the whole process so far, in seconds (getrusage).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Parent side: writes `jpeg` to a temporary file and runs each mode in a child
    /// of this same executable. Returns KiB by mode.
    static func measure(jpeg: Data) throws -> [Mode: Int] {
        try measure(jpeg, modes: Mode.reported)
    }

    /// ``measure(jpeg:)`` for any file and modes.
    static func measure(_ data: Data, modes: [Mode]) throws -> [Mode: Int] {
        try measureWithFloors(data, modes: modes).peaks
    }

    /// Peaks by mode, and the floor each mode measured for itself after its warm-up (the
    /// WebP modes), in KiB.
    static func measureWithFloors(_ data: Data, modes: [Mode]) throws -> (peaks: [Mode: Int], floors: [Mode: Int]) {
        var floors: [Mode: Int] = [:]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(getpid()).input")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var peaks: [Mode: Int] = [:]
        for mode in modes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--memory", mode.rawValue, "--input", file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                let line = output.split(separator: "\n").first(where: { $0.hasPrefix("peak_rss_kib ") }),
                let kib = Int(line.dropFirst("peak_rss_kib ".count))
            else {
                throw Baseline.Failure(description: "memory probe \(mode.rawValue) failed: \(output)")
            }
            peaks[mode] = kib
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("floor_rss_kib ") }),
                let floor = Int(line.dropFirst("floor_rss_kib ".count))
            {
                floors[mode] = floor
            }
        }
        return (peaks, floors)
    }
}
