import Foundation
import Testing
import WebImageFuzzing
import WebImageTestSupport

/// Inputs made here rather than found: the header seeds, and cut or damaged copies of
/// small images, through every harness.
@Suite("Fuzz harnesses over generated inputs")
struct GeneratedInputTests {
    @Test("no input at all and a few junk inputs are refused by every image harness")
    func junk() {
        let inputs = [Data(), Data([0]), Data(repeating: 0xFF, count: 64), Data("GIF89a".utf8), Data([0xFF, 0xD8, 0xFF])]
        for input in inputs {
            for target in [FuzzTarget.png, .jpeg, .gif, .webp, .avif, .incremental, .sniff] {
                #expect(!target.run(input).isAccepted, "\(target) accepted \(Array(input.prefix(8)))")
            }
        }
    }

    @Test("each header seed parses into what it was written to show")
    func headerSeeds() throws {
        let expected = [
            "challenge-401.txt": "challenge(s)",
            "data-url-base64.txt": "data URL",
            "data-url-plain.txt": "data URL",
            "ok-200.txt": "head 200 with 5 field(s)",
            "pins.txt": "2 pin(s)",
            "redirect-302.txt": "head 302 with 2 field(s)",
        ]
        let seeds = FuzzInputs.seeds(of: .headers)
        #expect(seeds.count == expected.count)
        for seed in seeds {
            let outcome = FuzzTarget.headers.run(try Data(contentsOf: seed))
            guard case .accepted(let summary) = outcome, let wanted = expected[seed.lastPathComponent] else {
                Issue.record("\(seed.lastPathComponent): \(outcome)")
                continue
            }
            #expect(summary.contains(wanted), "\(seed.lastPathComponent): \(summary)")
        }
    }

    /// Every prefix of a small file of each format, and the file with each byte flipped:
    /// the shapes of damage the fuzzer starts from, here on every run.
    @Test(
        "cut and flipped copies of small images", .enabled(if: Corpus.isAvailable, Corpus.missingMessage),
        arguments: ["png/pngsuite/basn0g01.png", "jpeg/pillow/icc-after-SOF.jpg", "gif/giflib/whatsinagif/sample_2_animation.gif"])
    func damagedCopies(file: String) throws {
        let data = try Corpus.data(file)
        let target: FuzzTarget = file.hasPrefix("png") ? .png : file.hasPrefix("jpeg") ? .jpeg : .gif
        #expect(target.run(data).isAccepted)
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 64)) {
            let cut = data.prefix(length)
            for each in [target, .incremental, .sniff] { _ = each.run(cut) }
        }
        for index in stride(from: 0, to: data.count, by: max(1, data.count / 64)) {
            var flipped = data
            flipped[index] ^= 0xFF
            for each in [target, .incremental] { _ = each.run(flipped) }
        }
    }

    /// The same for WebP and AVIF, whose files the corpus does not have: two of each
    /// format's fuzz seeds (a still and an animation), a step of 1/32 of the file:
    /// enough shapes of damage, and light enough to run beside the whole suite under the
    /// sanitizers.
    @Test("cut and flipped copies of small WebP and AVIF files", arguments: [FuzzTarget.webp, .avif])
    func damagedSeeds(target: FuzzTarget) throws {
        let kept = ["lossy", "animated", "sequence"]
        for (name, data) in try RepeatedStructureSeeds.files(for: target) where kept.contains(where: name.contains) {
            #expect(target.run(data).isAccepted, "\(name)")
            #expect(FuzzTarget.incremental.run(data).isAccepted, "\(name)")
            for length in stride(from: 0, to: data.count, by: max(1, data.count / 32)) {
                for each in [target, .incremental, .sniff] { _ = each.run(data.prefix(length)) }
            }
            for index in stride(from: 0, to: data.count, by: max(1, data.count / 32)) {
                var flipped = data
                flipped[index] ^= 0xFF
                for each in [target, .incremental] { _ = each.run(flipped) }
            }
        }
    }
}
