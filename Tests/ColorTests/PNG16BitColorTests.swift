import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

@Suite("16-bit PNG: converted before the samples are reduced to 8 bits")
struct PNG16BitColorTests {
    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    static let width = 96
    static let height = 40

    /// Dark and mid tones whose low bytes vary (where reducing first loses the most),
    /// with an alpha ramp on the first row.
    static let samples: [UInt16] = {
        var state: UInt32 = 12_345
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let ceiling = y < height / 2 ? 6_000 : 40_000
                    samples.append(UInt16(Int(state >> 8) % ceiling + channel * 97))
                }
                samples.append(y == 0 ? UInt16(x * 65_535 / (width - 1)) : 65_535)
            }
        }
        return samples
    }()

    /// LittleCMS's sRGB at double precision, rounded to bytes.
    static func rounded(_ colours: [(Double, Double, Double)]) -> [UInt8] {
        colours.flatMap { [$0.0, $0.1, $0.2].map { UInt8(($0 * 255).rounded()) } }
    }

    static func colourBytes(_ rgba: [UInt8]) -> [UInt8] {
        stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] }
    }

    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(
        "a 16-bit PNG converts from all 16 bits: within one level of LittleCMS on the 16-bit samples",
        .enabled(if: ColorReference.hasColord, ColorReference.colordMissing),
        arguments: ["ProPhotoRGB.icc", "AdobeRGB1998.icc", "WideGamutRGB.icc", "ECI-RGBv2.icc"], [false, true])
    func convertsWideSamples(profileName: String, interlaced: Bool) throws {
        let profile = try ColorReference.colord(profileName)
        let file = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: interlaced, profile: profile)
        let image = try Self.registry.decode(file)
        #expect(image.colorProfile == nil && image.sourceColorProfile == profile)
        #expect(image.warnings.isEmpty, "\(image.warnings)")

        let decoded = image.bitmap.packedBytes
        let fromWide = Self.rounded(ColorReference.toSRGB(samples: Self.samples, from: profile))
        let fromHighBytes = Self.rounded(ColorReference.toSRGB(Self.samples.map { UInt8($0 >> 8) }, from: profile))
        // The fixture is one where the order matters: reducing first is visibly off.
        #expect(Self.largestDifference(fromHighBytes, fromWide) >= 2, "\(profileName)")
        #expect(Self.largestDifference(Self.colourBytes(decoded), fromWide) <= 1, "\(profileName)")
        let alpha = stride(from: 3, to: decoded.count, by: 4).map { decoded[$0] }
        let expectedAlpha = stride(from: 3, to: Self.samples.count, by: 4).map { UInt8((Double(Self.samples[$0]) / 257).rounded()) }
        #expect(Self.largestDifference(alpha, expectedAlpha) <= 1)
        #expect(alpha.first == 0 && alpha.last == 255)
    }

    @Test(
        "the interlaced and the plain file decode to the same pixels, and so does the prepared decode",
        .enabled(if: ColorReference.hasColord, ColorReference.colordMissing))
    func interlacedMatchesPlain() throws {
        let profile = try ColorReference.colord("ProPhotoRGB.icc")
        let plain = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: false, profile: profile)
        let interlaced = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: true, profile: profile)
        let expected = try Self.registry.decode(plain).bitmap.packedBytes
        #expect(try Self.registry.decode(interlaced).bitmap.packedBytes == expected)
        let prepared = try Self.registry.decoder(for: interlaced).prepareDecode(interlaced, options: .default)
        #expect(try prepared.decode().bitmap.packedBytes == expected)
    }

    @Test("preserve keeps each sample's high byte and the profile")
    func preserveKeepsHighBytes() throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let file = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: false, profile: profile)
        let image = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == Self.samples.map { UInt8($0 >> 8) })
    }

    @Test("without a colour engine a 16-bit file keeps each sample's high byte")
    func withoutEngine() throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let file = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: true, profile: profile)
        let image = try ImageDecoderRegistry.standard.decode(file)
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == Self.samples.map { UInt8($0 >> 8) })
    }

    @Test("the memory estimate of an interlaced 16-bit file counts its 16-bit copy")
    func estimateCountsWideCopy() throws {
        let plain = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: false, profile: nil)
        let interlaced = PNG16Writer.png(width: Self.width, height: Self.height, samples: Self.samples, interlaced: true, profile: nil)
        let pixels = Self.width * Self.height
        #expect(PNGDecoder().estimatedMemory(decoding: plain, options: .default) == pixels * 4)
        #expect(PNGDecoder().estimatedMemory(decoding: interlaced, options: .default) == pixels * 12)
    }
}
