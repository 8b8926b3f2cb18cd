import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

@Suite("16-bit gray PNG in a gray profile: each level converted from its 16 bits")
struct PNG16BitGrayColorTests {
    static let width = 96
    static let height = 40

    /// Dark levels in the top half (where linear light loses the most to the high byte),
    /// mid levels below.
    static let levels: [UInt16] = {
        var state: UInt32 = 54_321
        return (0..<(width * height)).map { index in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt16(Int(state >> 8) % (index < width * height / 2 ? 3_000 : 40_000))
        }
    }()

    /// Linear light: the sRGB curve spreads its darkest levels over many bytes.
    static func profile() throws -> ColorProfile { try ColorReference.grayProfile(gamma: 1) }

    /// Rec. 601's luminance of sRGB colours in 0...1, as bytes.
    static func luminance(_ colours: [(Double, Double, Double)]) -> [UInt8] {
        colours.map { UInt8(((0.299 * $0.0 + 0.587 * $0.1 + 0.114 * $0.2) * 255).rounded()) }
    }

    @Test("an RGBA decode is within one level of LittleCMS on the 16-bit levels; reducing first is not", arguments: [false, true])
    func rgba(interlaced: Bool) throws {
        let profile = try Self.profile()
        let file = PNG16Writer.png(
            width: Self.width, height: Self.height, channels: 1, samples: Self.levels, interlaced: interlaced, profile: profile)
        let image = try PNG16BitColorTests.registry.decode(file)
        #expect(image.colorProfile == nil && image.sourceColorProfile == profile)
        #expect(image.warnings.isEmpty, "\(image.warnings)")

        let fromWide = PNG16BitColorTests.rounded(ColorReference.toSRGB(grayLevels: Self.levels, from: profile))
        let fromHighBytes = PNG16BitColorTests.rounded(ColorReference.toSRGB(grayLevels: Self.levels.map { UInt8($0 >> 8) }, from: profile))
        #expect(PNG16BitColorTests.largestDifference(fromHighBytes, fromWide) >= 2)
        let decoded = image.bitmap.packedBytes
        #expect(PNG16BitColorTests.largestDifference(PNG16BitColorTests.colourBytes(decoded), fromWide) <= 1)
        #expect(stride(from: 3, to: decoded.count, by: 4).allSatisfy { decoded[$0] == 255 })
    }

    @Test("a gray decode is each converted level's luminance, within one level; reducing first is not", arguments: [false, true])
    func gray(interlaced: Bool) throws {
        let profile = try Self.profile()
        let file = PNG16Writer.png(
            width: Self.width, height: Self.height, channels: 1, samples: Self.levels, interlaced: interlaced, profile: profile)
        let image = try PNG16BitColorTests.registry.decode(file, options: DecodeOptions(pixelFormat: .gray8))
        #expect(image.bitmap.pixelFormat == .gray8)
        #expect(image.colorProfile == nil && image.sourceColorProfile == profile)

        let fromWide = Self.luminance(ColorReference.toSRGB(grayLevels: Self.levels, from: profile))
        let fromHighBytes = Self.luminance(ColorReference.toSRGB(grayLevels: Self.levels.map { UInt8($0 >> 8) }, from: profile))
        #expect(PNG16BitColorTests.largestDifference(fromHighBytes, fromWide) >= 2)
        #expect(PNG16BitColorTests.largestDifference(image.bitmap.packedBytes, fromWide) <= 1)
    }

    @Test("preserve keeps each level's high byte and the gray profile")
    func preserve() throws {
        let profile = try Self.profile()
        let file = PNG16Writer.png(
            width: Self.width, height: Self.height, channels: 1, samples: Self.levels, interlaced: false, profile: profile)
        let image = try PNG16BitColorTests.registry.decode(file, options: DecodeOptions(color: .preserve))
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == Self.levels.flatMap { [UInt8($0 >> 8), UInt8($0 >> 8), UInt8($0 >> 8), 255] })
    }
}
