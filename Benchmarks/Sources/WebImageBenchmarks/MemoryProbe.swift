import Foundation
import WebImageCore
import WebImageDecoding

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
        }
        print("peak_rss_kib \(peakRSSKiB())")
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
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(getpid()).jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var peaks: [Mode: Int] = [:]
        for mode in Mode.reported {
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
        }
        return peaks
    }
}
