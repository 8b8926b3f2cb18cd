import Foundation
import Testing
import WebImageFuzzing

/// Every input a fuzzer ever crashed on, replayed through its harness: the invariant it
/// broke must hold now (a broken one stops the test process, as it stopped the fuzzer),
/// and the outcome must be the one `Regressions/OUTCOMES.tsv` records for it, so that a
/// change in what the library makes of a hostile input is seen and decided on.
@Suite("Saved fuzz crashes replay cleanly")
struct RegressionTests {
    @Test("each saved input gives the outcome recorded for it, and every recorded input is saved")
    func replay() throws {
        let recorded = try FuzzInputs.recordedOutcomes()
        var replayed: Set<String> = []
        for folder in FuzzInputs.regressionFolders() {
            let target = try #require(FuzzTarget(rawValue: folder), "Regressions/\(folder) names no fuzz target")
            for file in FuzzInputs.regressions(of: target) {
                let name = "\(folder)/\(file.lastPathComponent)"
                replayed.insert(name)
                let outcome = target.run(try Data(contentsOf: file)).description
                #expect(recorded[name] == outcome, "\(name): \(outcome)")
            }
        }
        #expect(Set(recorded.keys) == replayed, "OUTCOMES.tsv lists exactly the saved inputs")
    }

    @Test("there are saved inputs to replay")
    func savedInputsExist() {
        let count = FuzzTarget.allCases.map { FuzzInputs.regressions(of: $0).count }.reduce(0, +)
        #expect(count >= 5)
    }

    /// The file ended inside the first frame's data after its only pixel; the bytes of
    /// the cut block were read as records and made up two more frames.
    @Test("a GIF cut inside its LZW blocks does not grow frames from that data")
    func cutChainMakesNoFrames() throws {
        let outcome = FuzzTarget.gif.run(try regression("gif/cut-chain-phantom-frames.gif"))
        #expect(outcome == .accepted("gif 1x1 1 frame(s) orientation 1"))
    }

    /// giflib checks only "GIF"; `GIF\xb89a` was decoded though the registry refuses it.
    @Test("a GIF signature of an unknown version is refused by the GIF decoder")
    func gifSignatureVersion() throws {
        let outcome = FuzzTarget.sniff.run(try regression("sniff/gif-unknown-version.gif"))
        #expect(outcome == .rejected("sniffed unknown, no decoder accepted"))
        #expect(!FuzzTarget.gif.run(try regression("sniff/gif-unknown-version.gif")).isAccepted)
    }

    /// libjpeg skips junk after SOI; FF D8 not followed by a marker was decoded though
    /// the registry refuses it.
    @Test("a JPEG whose SOI is not followed by a marker is refused by the JPEG decoder")
    func jpegSOIThenJunk() throws {
        let outcome = FuzzTarget.sniff.run(try regression("sniff/jpeg-soi-then-junk.jpg"))
        #expect(outcome == .rejected("sniffed unknown, no decoder accepted"))
        #expect(!FuzzTarget.jpeg.run(try regression("sniff/jpeg-soi-then-junk.jpg")).isAccepted)
    }

    private func regression(_ path: String) throws -> Data {
        try Data(contentsOf: FuzzInputs.testsFolder.appendingPathComponent("Regressions/\(path)"))
    }
}
