import Foundation
import Testing
import WebImageColor
import WebImageCore

@Suite("ColorProfile: the header read and the sRGB rule")
struct ColorProfileTests {
    @Test("LittleCMS's sRGB profile is sRGB; other primaries or a gamma 2.2 curve are not")
    func srgbByContent() throws {
        #expect(try ColorProfile(iccData: SRGBProfiles.littleCMS()).isSRGB)
        let gamma22 = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 2.2)
        #expect(!gamma22.isSRGB)
        let adobe = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        #expect(!adobe.isSRGB)
        #expect(adobe.colorSpace == .rgb)
    }

    @Test(
        "colord's sRGB profile is sRGB, its wide-gamut ones are not", .enabled(if: ColorReference.hasColord, ColorReference.colordMissing))
    func colordProfiles() throws {
        #expect(try ColorReference.colord("sRGB.icc").isSRGB)
        for name in ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "SwappedRedAndGreen.icc", "Rec709.icc"] {
            let profile = try ColorReference.colord(name)
            #expect(!profile.isSRGB, "\(name)")
            #expect(profile.colorSpace == .rgb, "\(name)")
        }
    }

    @Test("a CMYK profile made by LittleCMS says CMYK")
    func cmykSpace() throws {
        #expect(try ColorProfile.complementCMYK().colorSpace == .cmyk)
    }

    @Test("hostile bytes are refused with the reason", arguments: HostileProfile.allCases)
    func hostile(_ hostile: HostileProfile) {
        let expected: ColorProfileError.Reason? =
            switch hostile {
            case .truncated: .truncated
            case .hugeDeclaredSize, .overSizeLimit: .tooLarge
            case .garbage, .tagOutside: .malformed
            case .unusable: nil  // a whole header: refused by the colour engine, not here
            }
        do {
            _ = try ColorProfile(iccData: hostile.bytes)
            #expect(expected == nil, "\(hostile) was accepted")
        } catch {
            #expect(error.reason == expected, "\(hostile): \(error)")
        }
    }

    @Test("equal bytes are equal profiles, and hash alike")
    func equality() throws {
        let a = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        let b = try ColorProfile(iccData: SRGBProfiles.adobeLike())
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != (try ColorProfile(iccData: SRGBProfiles.littleCMS())))
    }
}
