import Foundation
import WebImageFuzzing

/// Where the saved fuzz inputs live, found from this file's path (the tests read them in
/// place, as the fuzzer's `make fuzz` seeds do).
enum FuzzInputs {
    /// Tests/FuzzingTests.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Tools/TestSupport/Fuzz/Seeds: the hand-written seeds of targets the image corpus cannot seed.
    static let seedsFolder = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/TestSupport/Fuzz/Seeds")

    /// Every input a fuzzer crashed on, saved under `Regressions/<target>/`.
    static func regressions(of target: FuzzTarget) -> [URL] {
        files(in: testsFolder.appendingPathComponent("Regressions/\(target.rawValue)"))
    }

    /// The folders under `Regressions/`, each named after a fuzz target.
    static func regressionFolders() -> [String] {
        let folder = testsFolder.appendingPathComponent("Regressions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// `Regressions/OUTCOMES.tsv`: for each saved input (`target/file`), the outcome its
    /// harness gives now (``FuzzOutcome``'s description), one tab-separated line each.
    static func recordedOutcomes() throws -> [String: String] {
        let text = try String(contentsOf: testsFolder.appendingPathComponent("Regressions/OUTCOMES.tsv"), encoding: .utf8)
        var outcomes: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            if fields.count == 2 { outcomes[String(fields[0])] = String(fields[1]) }
        }
        return outcomes
    }

    /// The seeds of `target` under Tools/TestSupport/Fuzz/Seeds.
    static func seeds(of target: FuzzTarget) -> [URL] {
        files(in: seedsFolder.appendingPathComponent(target.rawValue))
    }

    private static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
    }
}
