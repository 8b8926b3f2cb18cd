import Foundation
import WebImage
import WebImageResources

/// The machine a run measured: what the report's figures are of.
struct Machine: Codable, Sendable {
    var cpu: String
    /// Processors the kernel lists (/proc/cpuinfo).
    var cores: Int
    /// The cores this process may use (affinity and cgroup quota), as the library counts them.
    var usableCores: Int
    var memoryGiB: Double
    var os: String
    var kernel: String
    var swift: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let processors = cpuinfo.split(separator: "\n").filter { $0.hasPrefix("processor") }.count
        let memoryKiB = value(of: "MemTotal", in: "/proc/meminfo").flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0
        let release = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "unknown"
        return Machine(
            cpu: value(of: "model name", in: "/proc/cpuinfo") ?? "unknown",
            cores: processors > 0 ? processors : ProcessInfo.processInfo.processorCount,
            usableCores: ProcessResources.current.usableCores,
            memoryGiB: memoryKiB / (1024 * 1024),
            os: value(of: "PRETTY_NAME", in: "/etc/os-release", separator: "=").map { $0.trimmingCharacters(in: ["\""]) } ?? "unknown",
            kernel: "Linux \(release.trimmingCharacters(in: .whitespacesAndNewlines))",
            swift: firstLine(of: ["swift", "--version"]) ?? "unknown")
    }

    /// The value of the first `key: value` (or `key=value`) line of a file.
    static func value(of key: String, in path: String, separator: Character = ":") -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The first line a program prints (to standard output or error), or `nil`.
    static func firstLine(of command: [String]) -> String? {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardOutput = output
        process.standardError = output
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }
}
