import CLibTurboJPEG
import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

@Suite("CMYK JPEGs: through their profile, or shown as browsers show them")
struct CMYKJPEGTests {
    /// Adobe-inverted CMYK (255 is no ink) made from the test photo.
    static func inks() -> [UInt8] {
        let photo = ColorTestImages.photo()
        var inks = [UInt8]()
        for i in 0..<(photo.count / 4) {
            let black = UInt8(255 - (i * 7) % 96)
            inks += [photo[4 * i], photo[4 * i + 1], photo[4 * i + 2], black]
        }
        return inks
    }

    /// A CMYK JPEG of `inks` (TurboJPEG writes YCCK with Adobe's marker), tagged with
    /// `profile`, and the inks libjpeg decodes from it.
    static func cmykJPEG(_ inks: [UInt8], profile: ColorProfile?) throws -> (file: Data, stored: [UInt8]) {
        let side = ColorTestImages.size
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = inks.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(side), 0, Int32(side), Int32(TJPF_CMYK.rawValue), &output, &size, Int32(TJSAMP_444.rawValue),
                98, 0)
        }
        #expect(status == 0)
        let jpeg = Data(bytes: try #require(output), count: Int(size))
        tjFree(output)
        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        var stored = [UInt8](repeating: 0, count: side * side * 4)
        _ = jpeg.withUnsafeBytes { bytes in
            tjDecompress2(
                decompressor, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), &stored, Int32(side), 0,
                Int32(side),
                Int32(TJPF_CMYK.rawValue), 0)
        }
        guard let profile else { return (jpeg, stored) }
        return (JPEGSegments.withRawProfile(jpeg, profile.data), stored)
    }

    static func registry(_ converter: any ColorConverting) -> ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = converter
        return registry
    }

    @Test("a CMYK JPEG with a profile decodes within CIEDE2000 1.5 of LittleCMS", arguments: [nil, 24] as [Int?])
    func embeddedProfile(maxPixelSize: Int?) throws {
        let profile = try ColorProfile.complementCMYK(shadowGamma: 1.6)
        let (file, stored) = try Self.cmykJPEG(Self.inks(), profile: profile)
        let image = try Self.registry(LittleCMSColorConverter()).decode(file, options: DecodeOptions(maxPixelSize: maxPixelSize))
        #expect(image.colorProfile == nil && image.sourceColorProfile == profile)
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        guard maxPixelSize == nil else {
            #expect(image.size == PixelSize(width: 24, height: 24))
            return
        }
        let expected = ColorReference.toSRGB(stored, from: profile, cmyk: true)
        let difference = ColorReference.deltaE2000(ColorReference.unit(image.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "mean \(difference.mean)")
        #expect(difference.p95 <= 4, "p95 \(difference.p95)")
        let naive = try ImageDecoderRegistry.standard.decode(file)
        let naiveDifference = ColorReference.deltaE2000(ColorReference.unit(naive.bitmap.packedBytes), expected)
        #expect(naiveDifference.mean > difference.mean + 1, "naive mean \(naiveDifference.mean)")
        #expect(naive.warnings.map(\.code) == [.colorNotManaged])
    }

    @Test("a CMYK JPEG without a profile goes through the converter's default CMYK profile")
    func defaultProfile() throws {
        let press = try ColorProfile.complementCMYK(shadowGamma: 1.6)
        let (file, stored) = try Self.cmykJPEG(Self.inks(), profile: nil)
        let image = try Self.registry(LittleCMSColorConverter(defaultCMYKProfile: press)).decode(file)
        let expected = ColorReference.toSRGB(stored, from: press, cmyk: true)
        let difference = ColorReference.deltaE2000(ColorReference.unit(image.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "mean \(difference.mean)")
        // With no default profile set: the complement formula, as browsers show it.
        let plain = try Self.registry(LittleCMSColorConverter()).decode(file)
        #expect(plain.bitmap.packedBytes == (try ImageDecoderRegistry.standard.decode(file)).bitmap.packedBytes)
        #expect(plain.warnings.isEmpty)
    }
}
