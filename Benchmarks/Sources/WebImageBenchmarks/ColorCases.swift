import Foundation
import WebImage
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

/// What colour management costs a thumbnail: the same 1600x1200 JPEG decoded to fit
/// 256 px through the umbrella's registry (LittleCMS's converter), tagged with a
/// profile and untagged. The conversion runs on the 256 px pixels, after the DCT-scaled
/// decode and the resampler, so a tagged file should cost little more; an sRGB-tagged
/// one should cost nothing (no transform is built or run).
enum ColorCases {
    static let names = ["Decode 1600x1200 Display P3 JPEG to fit 256 px", "Decode 1600x1200 sRGB-tagged JPEG to fit 256 px"]
    static let batch = 20

    static func all() throws -> [BenchmarkCase] {
        let photo = try SyntheticImage.photo(width: 1600, height: 1200, seed: 23)
        let displayP3 = try ColorProfile.stated(
            white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), transfer: .sRGB,
            origin: "Display P3")
        let srgb = try ColorProfile.stated(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), transfer: .sRGB, origin: "sRGB")
        guard srgb.isSRGB, !displayP3.isSRGB else { throw Baseline.Failure(description: "Colour: the profiles are not what they say") }
        let untagged = try JPEGEncoder(quality: 85).encode(photo)
        let tagged = try JPEGEncoder(quality: 85, colorProfile: displayP3).encode(photo)
        let srgbTagged = try JPEGEncoder(quality: 85, colorProfile: srgb).encode(photo)
        let registry = ImageDecoderRegistry.allFormats
        let fit = DecodeOptions(maxPixelSize: 256)
        let converted = try registry.decode(tagged, options: fit)
        guard converted.sourceColorProfile == displayP3, converted.colorProfile == nil, converted.warnings.isEmpty else {
            throw Baseline.Failure(description: "Colour: the Display P3 file was not converted")
        }
        func decoding(_ name: String, _ file: Data) -> Contender {
            Contender(name: name) { for _ in 0..<batch { consume(try registry.decode(file, options: fit)) } }
        }
        return [
            BenchmarkCase(
                section: .thumbnails, name: names[0],
                contenders: [decoding("ours, Display P3 (converted)", tagged), decoding("ours, untagged", untagged)],
                imagesPerRun: batch, comparisons: [.time(.atMost(1.10))]),
            BenchmarkCase(
                section: .thumbnails, name: names[1],
                contenders: [decoding("ours, sRGB-tagged", srgbTagged), decoding("ours, untagged", untagged)],
                imagesPerRun: batch, comparisons: [.time(.atMost(1.02))]),
        ]
    }
}
