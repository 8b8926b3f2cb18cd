import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

/// GIFs written by hand: a 16x16 picture of 256 colours (every fourth pixel of the test
/// photo, each its own palette entry), LZW coded with a clear code every two pixels so
/// that codes stay 9 bits, and an optional ICCRGBG1012 application extension.
enum GIFColorWriter {
    static let side = 16

    /// The 256 colours, RGBA.
    static var pixels: [UInt8] {
        let photo = ColorTestImages.photo()
        var out: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let at = ((y * 4) * ColorTestImages.size + x * 4) * 4
                out += photo[at..<(at + 4)]
            }
        }
        return out
    }

    static func gif(profile: Data?) -> Data {
        let colours = pixels
        var out: [UInt8] = Array("GIF89a".utf8) + [UInt8(side), 0, UInt8(side), 0, 0xF7, 0, 0]
        for index in 0..<256 { out += colours[(index * 4)..<(index * 4 + 3)] }
        if let profile {
            out += [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
            out += subBlocks(Array(profile))
        }
        out += [0x2C, 0, 0, 0, 0, UInt8(side), 0, UInt8(side), 0, 0, 8]
        var codes: [Int] = []
        for index in 0..<(side * side) {
            if index % 2 == 0 { codes.append(256) }
            codes.append(index)
        }
        codes.append(257)
        out += subBlocks(pack(codes, bits: 9))
        out.append(0x3B)
        return Data(out)
    }

    /// `codes` of `bits` bits each, least significant bit first.
    private static func pack(_ codes: [Int], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        var accumulator = 0
        var count = 0
        for code in codes {
            accumulator |= code << count
            count += bits
            while count >= 8 {
                out.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                count -= 8
            }
        }
        if count > 0 { out.append(UInt8(accumulator & 0xFF)) }
        return out
    }

    /// Data sub-blocks of at most 255 bytes, then the terminator.
    private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        return out + [0]
    }
}

@Suite("GIF ICCRGBG1012 profiles")
struct GIFColorTests {
    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    @Test("an untagged GIF decodes to its palette's colours")
    func untagged() throws {
        let image = try Self.registry.decode(GIFColorWriter.gif(profile: nil))
        #expect(image.bitmap.packedBytes == GIFColorWriter.pixels)
        #expect(image.sourceColorProfile == nil && image.warnings.isEmpty)
    }

    @Test(
        "a GIF with an ICC application extension decodes within CIEDE2000 1.5 of LittleCMS; preserve keeps the profile",
        arguments: [[0.70, 0.29, 0.17, 0.80, 0.13, 0.04], [0.30, 0.60, 0.64, 0.33, 0.15, 0.06]])
    func tagged(primaries: [Double]) throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (primaries[0], primaries[1]), green: (primaries[2], primaries[3]),
            blue: (primaries[4], primaries[5]), gamma: 1.8)
        let file = GIFColorWriter.gif(profile: profile.data)
        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        #expect(stored.colorProfile == profile && stored.bitmap.packedBytes == GIFColorWriter.pixels)
        let shown = try Self.registry.decode(file)
        #expect(shown.colorProfile == nil && shown.sourceColorProfile == profile && shown.warnings.isEmpty)
        let expected = ColorReference.toSRGB(GIFColorWriter.pixels, from: profile)
        let difference = ColorReference.deltaE2000(ColorReference.unit(shown.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "mean \(difference.mean)")
        #expect(difference.p95 <= 4, "p95 \(difference.p95)")
    }
}
