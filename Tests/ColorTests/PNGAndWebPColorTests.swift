import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageWebP

@Suite("PNG iCCP and WebP ICCP profiles")
struct PNGAndWebPColorTests {
    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    static func encoded(_ format: ImageFormat, _ profile: ColorProfile?) throws -> Data {
        let bitmap = try ColorTestImages.bitmap(ColorTestImages.photo())
        switch format {
        case .png:
            var encoder = PNGEncoder()
            encoder.colorProfile = profile
            return try encoder.encode(bitmap)
        default:
            var encoder = WebPEncoder(quality: 100, lossless: true)
            encoder.colorProfile = profile
            return try encoder.encode(bitmap)
        }
    }

    @Test(
        "tagged PNG and WebP decode within CIEDE2000 1.5 of LittleCMS",
        .enabled(if: ColorReference.hasColord, ColorReference.colordMissing),
        arguments: [ImageFormat.png, .webp], ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "SwappedRedAndGreen.icc"])
    func accuracy(format: ImageFormat, profileName: String) throws {
        let profile = try ColorReference.colord(profileName)
        let file = try Self.encoded(format, profile)
        let image = try Self.registry.decode(file)
        #expect(image.sourceColorProfile == profile && image.colorProfile == nil)
        #expect(image.warnings.isEmpty, "\(image.warnings)")
        let expected = ColorReference.toSRGB(ColorTestImages.photo(), from: profile)
        let difference = ColorReference.deltaE2000(ColorReference.unit(image.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "\(format) \(profileName): mean \(difference.mean)")
        #expect(difference.p95 <= 4, "\(format) \(profileName): p95 \(difference.p95)")
    }

    @Test("preserve gives back the stored pixels and the profile", arguments: [ImageFormat.png, .webp])
    func preserve(format: ImageFormat) throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let image = try Self.registry.decode(Self.encoded(format, profile), options: DecodeOptions(color: .preserve))
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == ColorTestImages.photo())
    }

    @Test("an untagged file is sRGB and takes no transform", arguments: [ImageFormat.png, .webp])
    func untagged(format: ImageFormat) throws {
        let image = try Self.registry.decode(Self.encoded(format, nil))
        #expect(image.colorProfile == nil && image.sourceColorProfile == nil && image.warnings.isEmpty)
        #expect(image.bitmap.packedBytes == ColorTestImages.photo())
    }

    @Test("a tagged PNG fed in slices gives partial and final images converted as the whole decode's")
    func incremental() throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let file = try Self.encoded(.png, profile)
        let whole = try Self.registry.decode(file)
        let decoder = Self.registry.makeIncrementalDecoder()
        let half = file.count / 2
        try decoder.append(file.prefix(half))
        let partial = try #require(try decoder.partialImage())
        #expect(partial.sourceColorProfile == profile && partial.colorProfile == nil)
        try decoder.append(file.dropFirst(half))
        let final = try decoder.finish()
        #expect(final.sourceColorProfile == profile && final.colorProfile == nil)
        #expect(final.bitmap.packedBytes == whole.bitmap.packedBytes)
        #expect(final.bitmap.packedBytes != ColorTestImages.photo(), "the stored pixels were converted")
    }

    @Test("a PNG iCCP that inflates past the size limit is ignored with a warning")
    func pngOverLimit() throws {
        let file = try Self.encoded(.png, nil)
        let bomb = PNGColorChunkWriter.iCCP(name: "huge", storing: Data(count: ColorProfile.maximumByteCount + 1))
        let image = try Self.registry.decode(PNGColorChunkWriter.insertAfterIHDR(bomb, into: file))
        #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(image.warnings)")
        #expect(image.bitmap.packedBytes == ColorTestImages.photo())
    }
}
