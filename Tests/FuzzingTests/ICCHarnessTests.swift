import Foundation
import Testing
import WebImageFuzzing

/// The `icc` target over real profiles and every cut and flipped copy of one: the shapes
/// of damage the fuzzer starts from.
@Suite("Fuzz harness icc")
struct ICCHarnessTests {
    static let colord = URL(fileURLWithPath: "/usr/share/color/icc/colord")
    static var hasColord: Bool { FileManager.default.fileExists(atPath: colord.appendingPathComponent("sRGB.icc").path) }

    @Test(
        "real profiles convert; their cut and flipped copies never break an invariant",
        .enabled(if: hasColord, "colord-data is not installed (apt-get install colord-data)"))
    func damagedProfiles() throws {
        for name in ["sRGB.icc", "AdobeRGB1998.icc", "SwappedRedAndGreen.icc"] {
            let profile = try Data(contentsOf: Self.colord.appendingPathComponent(name))
            #expect(FuzzTarget.icc.run(profile).description.hasSuffix("converted"), "\(name)")
            for length in stride(from: 0, to: profile.count, by: max(1, profile.count / 97)) {
                _ = FuzzTarget.icc.run(profile.prefix(length))
            }
            for index in stride(from: 0, to: profile.count, by: max(1, profile.count / 211)) {
                var flipped = profile
                flipped[index] ^= 0xA5
                _ = FuzzTarget.icc.run(flipped)
            }
        }
    }

    @Test("junk is refused")
    func junk() {
        for input in [Data(), Data(repeating: 0, count: 200), Data(repeating: 0xFF, count: 4096)] {
            #expect(!FuzzTarget.icc.run(input).isAccepted)
        }
    }
}
