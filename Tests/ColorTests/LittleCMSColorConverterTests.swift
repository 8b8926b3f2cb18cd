import Foundation
import Testing
import WebImageColor
import WebImageCore

@Suite("LittleCMSColorConverter: transforms, their cache, threads")
struct LittleCMSColorConverterTests {
    @Test("transforms are built once per source and target, and the cache stays bounded")
    func cacheBounded() throws {
        let converter = LittleCMSColorConverter(cacheCapacity: 3)
        let profiles = try (0..<5).map { step in
            try ColorProfile.rgb(
                white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 1.8 + 0.1 * Double(step))
        }
        _ = try converter.transform(from: .profile(profiles[0]), to: nil)
        _ = try converter.transform(from: .profile(profiles[0]), to: nil)
        #expect(converter.cachedTransformCount == 1)
        for profile in profiles { _ = try converter.transform(from: .profile(profile), to: nil) }
        #expect(converter.cachedTransformCount == 3)
    }

    @Test("16-bit transforms are kept beside the 8-bit ones, once per source and target")
    func wideTransformsCached() throws {
        let converter = LittleCMSColorConverter(cacheCapacity: 3)
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        _ = try converter.transform(from: .profile(profile), to: nil)
        _ = try converter.wideTransform(from: profile, to: nil)
        _ = try converter.wideTransform(from: profile, to: nil)
        #expect(converter.cachedTransformCount == 2)
    }

    @Test("a 16-bit transform converts opaque white and black to opaque white and black, and keeps alpha")
    func wideTransformEnds() throws {
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let transform = try LittleCMSColorConverter().wideTransform(from: profile, to: nil)
        let source: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x80, 0x80]
        var destination = [UInt8](repeating: 7, count: 8)
        source.withUnsafeBytes { source in
            destination.withUnsafeMutableBytes { transform.apply(bigEndian16: source.baseAddress!, to: $0.baseAddress!, pixelCount: 2) }
        }
        #expect(destination == [255, 255, 255, 255, 0, 0, 0, 128])
    }

    @Test("an engine without 16-bit transforms says so with a typed error")
    func engineWithoutWideTransforms() throws {
        struct EightBitOnly: ColorConverting {
            func transform(from source: ColorSource, to destination: ColorProfile?) throws(ColorProfileError) -> any ColorTransforming {
                throw ColorProfileError(.unusable, "not used here")
            }
        }
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        #expect(throws: ColorProfileError.self) { try EightBitOnly().wideTransform(from: profile, to: nil) }
    }

    @Test("many threads convert through one transform and get the same pixels")
    func concurrentUse() async throws {
        let converter = LittleCMSColorConverter()
        let profile = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let source = ColorTestImages.photo()
        var expected = source
        let transform = try converter.transform(from: .profile(profile), to: nil)
        expected.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixelCount: $0.count / 4) }
        let results = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var pixels = source
                    let transform = try! converter.transform(from: .profile(profile), to: nil)
                    pixels.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixelCount: $0.count / 4) }
                    return pixels
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test(
        "an 8-bit RGB transform is within one level of LittleCMS's exact conversion, on every gray and random colours",
        .enabled(if: ColorReference.hasColord, ColorReference.colordMissing),
        arguments: ["ProPhotoRGB.icc", "AdobeRGB1998.icc", "WideGamutRGB.icc", "ECI-RGBv2.icc"])
    func eightBitAccuracy(profileName: String) throws {
        let profile = try ColorReference.colord(profileName)
        var state: UInt64 = 52
        var source: [UInt8] = []
        for level in 0...255 { source += [UInt8(level), UInt8(level), UInt8(level), UInt8(level)] }
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            source += [
                UInt8(truncatingIfNeeded: state >> 56), UInt8(truncatingIfNeeded: state >> 48), UInt8(truncatingIfNeeded: state >> 40), 200,
            ]
        }
        var pixels = source
        try LittleCMSColorConverter().transform(from: .profile(profile), to: nil).apply(&pixels, pixelCount: pixels.count / 4)
        let exact = ColorReference.toSRGB(source, from: profile).flatMap { [$0.0, $0.1, $0.2] }.map { Int(($0 * 255).rounded()) }
        let converted = stride(from: 0, to: pixels.count, by: 4).flatMap { pixels[$0..<($0 + 3)] }.map(Int.init)
        #expect(zip(converted, exact).map { abs($0 - $1) }.max() ?? 0 <= 1, "\(profileName)")
        #expect(stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == source[$0] })
    }

    @Test("alpha is kept through an RGB transform")
    func alphaKept() throws {
        let transform = try LittleCMSColorConverter().transform(from: .profile(ColorProfile(iccData: SRGBProfiles.adobeLike())), to: nil)
        var pixels: [UInt8] = [200, 30, 60, 0, 10, 250, 40, 77, 128, 128, 128, 255]
        pixels.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixelCount: 3) }
        #expect([pixels[3], pixels[7], pixels[11]] == [0, 77, 255])
    }

    @Test("an unusable profile is refused, not crashed on")
    func unusable() throws {
        let profile = try ColorProfile(iccData: HostileProfile.unusable.bytes)
        #expect(throws: ColorProfileError.self) { try LittleCMSColorConverter().transform(from: .profile(profile), to: nil) }
    }

    @Test("CMYK without a profile shows as the complement formula; with one, through it")
    func cmykDefault() throws {
        let converter = LittleCMSColorConverter()
        var naive: [UInt8] = [255, 128, 0, 200]
        try converter.transform(from: .invertedCMYK(nil), to: nil).apply(&naive, pixelCount: 1)
        #expect(naive == [200, 100, 0, 255])
        let press = LittleCMSColorConverter(defaultCMYKProfile: try ColorProfile.complementCMYK(shadowGamma: 1.6))
        var pixels: [UInt8] = [255, 128, 0, 200]
        try press.transform(from: .invertedCMYK(nil), to: nil).apply(&pixels, pixelCount: 1)
        #expect(pixels[3] == 255)
        #expect(pixels[0] < 190 && pixels[1] < 90, "\(pixels)")
    }
}
