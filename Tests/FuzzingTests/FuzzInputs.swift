import Foundation
import WebImageFuzzing

/// Where the saved fuzz inputs live, found from this file's path (the tests read them in
/// place, as the fuzzer's `make fuzz` seeds do).
enum FuzzInputs {
    /// Tests/FuzzingTests.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Tools/Fuzz/Seeds: the hand-written seeds of targets the image corpus cannot seed.
    static let seedsFolder = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/Fuzz/Seeds")

    /// Every input a fuzzer crashed on, saved under `Regressions/<target>/`.
    static func regressions(of target: FuzzTarget) -> [URL] {
        files(in: testsFolder.appendingPathComponent("Regressions/\(target.rawValue)"))
    }

    /// The seeds of `target` under Tools/Fuzz/Seeds.
    static func seeds(of target: FuzzTarget) -> [URL] {
        files(in: seedsFolder.appendingPathComponent(target.rawValue))
    }

    private static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
    }
}
