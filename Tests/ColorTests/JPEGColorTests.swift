import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageEncoding

@Suite("JPEG colour: ICC profiles in APP2, converted to sRGB")
struct JPEGColorTests {
    static let converter = LittleCMSColorConverter()

    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = converter
        return registry
    }

    /// A JPEG of the test photo tagged with `profile`, and its stored pixels.
    static func taggedJPEG(_ profile: ColorProfile?) throws -> (file: Data, stored: [UInt8]) {
        let file = try JPEGEncoder(quality: 95, subsampling: .s444, colorProfile: profile).encode(
            ColorTestImages.bitmap(ColorTestImages.photo()))
        let stored = try JPEGDecoder().decode(file).bitmap.packedBytes
        return (file, stored)
    }

    @Test(
        "tagged photos decode within CIEDE2000 1.5 of LittleCMS",
        .enabled(if: ColorReference.hasColord, ColorReference.colordMissing),
        arguments: ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "SwappedRedAndGreen.icc"])
    func accuracy(profileName: String) throws {
        let profile = try ColorReference.colord(profileName)
        let (file, stored) = try Self.taggedJPEG(profile)
        let image = try Self.registry.decode(file)
        #expect(image.colorProfile == nil)
        #expect(image.sourceColorProfile == profile)
        #expect(image.warnings.isEmpty)
        let expected = ColorReference.toSRGB(stored, from: profile)
        let difference = ColorReference.deltaE2000(ColorReference.unit(image.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "\(profileName): mean \(difference.mean)")
        #expect(difference.p95 <= 4, "\(profileName): p95 \(difference.p95)")
        // And untransformed, the file is visibly off: the conversion did something.
        let untransformed = ColorReference.deltaE2000(ColorReference.unit(stored), expected)
        #expect(untransformed.mean > difference.mean + 1, "\(profileName): untransformed mean \(untransformed.mean)")
    }

    @Test("a profile with red and green swapped shows them swapped")
    func swappedPrimaries() throws {
        let swapped = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.30, 0.60), green: (0.64, 0.33), blue: (0.15, 0.06), gamma: 2.2)
        let red = try ImageBitmap(width: 16, height: 16, pixelFormat: .rgba8) { bytes, _ in
            for i in 0..<256 { bytes.storeBytes(of: UInt32(0xFF00_00FF).bigEndian, toByteOffset: 4 * i, as: UInt32.self) }
        }
        let file = try JPEGEncoder(quality: 95, subsampling: .s444, colorProfile: swapped).encode(red)
        let pixel = try Self.registry.decode(file).bitmap.packedBytes.prefix(4)
        #expect(pixel[0] < 60 && pixel[1] > 200, "stored red shows green: \(Array(pixel))")
    }

    @Test("an sRGB-tagged file takes no transform")
    func srgbTaggedCostsNothing() throws {
        let srgb = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 2.2)
        #expect(!srgb.isSRGB, "a gamma 2.2 curve is not sRGB's")
        let counting = CountingConverter(base: Self.converter)
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = counting
        let lcmsSRGB = try #require(try? ColorProfile(iccData: SRGBProfiles.littleCMS()))
        #expect(lcmsSRGB.isSRGB)
        let (file, stored) = try Self.taggedJPEG(lcmsSRGB)
        let image = try registry.decode(file)
        #expect(counting.count == 0)
        #expect(image.colorProfile == nil && image.sourceColorProfile == lcmsSRGB)
        #expect(image.bitmap.packedBytes == stored)
    }

    @Test("preserve keeps the stored pixels and attaches the profile")
    func preserve() throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        let (file, stored) = try Self.taggedJPEG(profile)
        let image = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == stored)
    }

    @Test("convert(to:) converts into the asked profile")
    func convertToProfile() throws {
        let target = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        let (file, stored) = try Self.taggedJPEG(nil)
        let image = try Self.registry.decode(file, options: DecodeOptions(color: .convert(to: target)))
        #expect(image.colorProfile == target)
        // Back to sRGB through the target profile, the colours are the stored ones.
        let shown = ColorReference.toSRGB(image.bitmap.packedBytes, from: target)
        let difference = ColorReference.deltaE2000(shown, ColorReference.unit(stored))
        #expect(difference.mean <= 1.5, "mean \(difference.mean)")
    }

    @Test("a profile split over APP2 segments in any order is put together")
    func segmentsOutOfOrder() throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        let file = try JPEGSegments.reordered(Self.taggedJPEG(nil).file, profile: profile, chunkSize: 100)
        let image = try JPEGDecoder().decode(file)
        #expect(image.colorProfile == profile)
        #expect(image.warnings.isEmpty)
    }

    @Test("hostile profiles are ignored with a warning and the image decodes", arguments: HostileProfile.allCases)
    func hostile(_ hostile: HostileProfile) throws {
        let (file, stored) = try Self.taggedJPEG(nil)
        let tagged = JPEGSegments.withRawProfile(file, hostile.bytes)
        let image = try Self.registry.decode(tagged)
        #expect(image.colorProfile == nil)
        #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(image.warnings)")
        #expect(image.bitmap.packedBytes == stored)
    }

    @Test("APP2 chunks missing or repeated are ignored with a warning")
    func brokenChunks() throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        let (file, _) = try Self.taggedJPEG(nil)
        for damage in JPEGSegments.Damage.allCases {
            let damaged = JPEGSegments.reordered(file, profile: profile, chunkSize: 100, damage: damage)
            let image = try JPEGDecoder().decode(damaged)
            #expect(image.colorProfile == nil, "\(damage)")
            #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(damage)")
        }
    }

    @Test("an incremental decode through the registry converts as the whole-file decode does")
    func incremental() throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let (file, _) = try Self.taggedJPEG(profile)
        let decoder = Self.registry.makeIncrementalDecoder()
        for start in stride(from: 0, to: file.count, by: 700) {
            try decoder.append(file[(file.startIndex + start)..<(file.startIndex + min(start + 700, file.count))])
        }
        let image = try decoder.finish()
        #expect(image.colorProfile == nil && image.sourceColorProfile == profile)
        #expect(image.bitmap.packedBytes == (try Self.registry.decode(file)).bitmap.packedBytes)
    }

    @Test("a registry without a colour engine attaches the profile and leaves the pixels")
    func noEngine() throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        let (file, stored) = try Self.taggedJPEG(profile)
        let image = try ImageDecoderRegistry.standard.decode(file)
        #expect(image.colorProfile == profile)
        #expect(image.bitmap.packedBytes == stored)
    }
}

/// Counts the transforms asked for.
final class CountingConverter: ColorConverting, @unchecked Sendable {
    let base: any ColorConverting
    private let lock = NSLock()
    private var asked = 0
    var count: Int { lock.withLock { asked } }

    init(base: any ColorConverting) { self.base = base }

    func transform(from source: ColorSource, to destination: ColorProfile?) throws(ColorProfileError) -> any ColorTransforming {
        lock.withLock { asked += 1 }
        return try base.transform(from: source, to: destination)
    }
}
