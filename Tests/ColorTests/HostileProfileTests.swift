import Foundation
import Testing
import WebImageAVIF
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageWebP

/// Profiles made broken at test time, each the length of a good one so that it takes
/// the good one's place in a file: every format must decode the stored pixels and say
/// it ignored the profile.
@Suite("Hostile embedded profiles")
struct HostileProfileTests {
    enum Damage: String, CaseIterable, Sendable {
        /// No `acsp` signature.
        case notICC
        /// A declared size past the bytes.
        case declaresMore
        /// A tag whose data lies past the profile's end.
        case tagOutside
        /// A well-formed header whose `rXYZ` tag is of an unknown type: LittleCMS refuses it.
        case refusedByEngine
        /// A CMYK profile on RGB pixels.
        case wrongSpace
    }

    enum Format: String, CaseIterable, Sendable { case jpeg, png, webp, avif, gif }

    static func good() throws -> ColorProfile {
        try ColorProfile.rgb(white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
    }

    static func damaged(_ profile: Data, _ damage: Damage) -> Data {
        var bytes = [UInt8](profile)
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        func put(_ value: Int, at: Int) { for i in 0..<4 { bytes[at + i] = UInt8((value >> (24 - 8 * i)) & 0xFF) } }
        switch damage {
        case .notICC: bytes.replaceSubrange(36..<40, with: Array("xxxx".utf8))
        case .declaresMore: put(bytes.count + 100, at: 0)
        case .tagOutside: put(bytes.count + 1000, at: 132 + 4)
        case .refusedByEngine:
            for index in 0..<u32(128) where bytes[(132 + 12 * index)..<(136 + 12 * index)].elementsEqual("rXYZ".utf8) {
                let offset = u32(132 + 12 * index + 4)
                bytes.replaceSubrange(offset..<(offset + 4), with: Array("junk".utf8))
            }
        case .wrongSpace: bytes.replaceSubrange(16..<20, with: Array("CMYK".utf8))
        }
        return Data(bytes)
    }

    /// The test photo in `format`, with `good` embedded, then its bytes overwritten by
    /// `hostile` (the same length) where the format stores them whole.
    static func file(_ format: Format, good: ColorProfile, hostile: Data) throws -> Data {
        let bitmap = try ColorTestImages.bitmap(ColorTestImages.photo())
        let tagged: Data
        switch format {
        case .jpeg: return JPEGSegments.withRawProfile(try JPEGEncoder(quality: 90).encode(bitmap), hostile)
        case .png:
            return PNGColorChunkWriter.insertAfterIHDR(
                PNGColorChunkWriter.iCCP(name: "x", storing: hostile), into: try PNGEncoder().encode(bitmap))
        case .gif: return GIFColorWriter.gif(profile: hostile)
        case .webp:
            var encoder = WebPEncoder(quality: 100, lossless: true)
            encoder.colorProfile = good
            tagged = try encoder.encode(bitmap)
        case .avif:
            var encoder = AVIFEncoder(quality: 90, subsampling: .s444)
            encoder.colorProfile = good
            tagged = try encoder.encode(bitmap)
        }
        var bytes = tagged
        let range = try #require(bytes.firstRange(of: good.data))
        bytes.replaceSubrange(range, with: hostile)
        return bytes
    }

    @Test(
        "a broken or unusable profile is ignored with colorProfileIgnored, and the stored pixels are shown",
        arguments: Format.allCases, Damage.allCases)
    func ignored(format: Format, damage: Damage) throws {
        let good = try Self.good()
        let file = try Self.file(format, good: good, hostile: Self.damaged(good.data, damage))
        var managed = ImageDecoderRegistry.standard
        managed.register(WebPDecoder())
        managed.register(AVIFDecoder())
        var plain = managed
        managed.colorConverter = LittleCMSColorConverter()
        plain.colorConverter = nil
        let image = try managed.decode(file)
        #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(format) \(damage): \(image.warnings)")
        #expect(image.colorProfile == nil && image.sourceColorProfile == nil)
        let stored = try plain.decode(file, options: DecodeOptions(color: .preserve))
        #expect(image.bitmap.packedBytes == stored.bitmap.packedBytes, "\(format) \(damage): pixels as stored")
    }
}
