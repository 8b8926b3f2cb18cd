import CLCMS2
import Foundation
import Testing
import WebImageCore

/// LittleCMS called directly, at double precision and without its optimisations: the
/// reference the library's conversions are measured against, and CIEDE2000.
enum ColorReference {
    /// The profiles of Debian's colord-data package, installed by `make test-deps`.
    static let colordDirectory = URL(fileURLWithPath: "/usr/share/color/icc/colord")
    static var hasColord: Bool { FileManager.default.fileExists(atPath: colordDirectory.appendingPathComponent("AdobeRGB1998.icc").path) }
    static let colordMissing: Comment =
        "colord-data is not installed (apt-get install colord-data): /usr/share/color/icc/colord has no profiles"

    static func colord(_ name: String) throws -> ColorProfile {
        try ColorProfile(iccData: Data(contentsOf: colordDirectory.appendingPathComponent(name)))
    }

    /// What LittleCMS makes of 4-byte `pixels` in `profile` (RGB, or inverted CMYK), as
    /// sRGB in 0...1, clipped, relative colorimetric; `nil` profile: the pixels are sRGB.
    static func toSRGB(_ pixels: [UInt8], from profile: ColorProfile?, cmyk: Bool = false) -> [(Double, Double, Double)] {
        let input: cmsHPROFILE? =
            profile.map { p in p.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) } }
            ?? cmsCreate_sRGBProfile()
        return toSRGB(pixels, from: input, cmyk: cmyk)
    }

    /// What LittleCMS makes of RGBA `pixels` in the space it builds itself
    /// (`cmsCreateRGBProfile`) from a white point, primaries and `curve` (encoded value
    /// to linear light, sampled at 4,096 points), as sRGB in 0...1.
    static func toSRGB(
        _ pixels: [UInt8], white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        curve: (Double) -> Double
    ) -> [(Double, Double, Double)] {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        let samples = (0..<4096).map { Float(curve(Double($0) / 4095)) }
        let tone = cmsBuildTabulatedToneCurveFloat(nil, 4096, samples)
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        let input = cmsCreateRGBProfile(&whitePoint, &primaries, &curves)
        return toSRGB(pixels, from: input, cmyk: false)
    }

    private static func toSRGB(_ pixels: [UInt8], from input: cmsHPROFILE?, cmyk: Bool) -> [(Double, Double, Double)] {
        let count = pixels.count / 4
        let output = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        // TYPE_RGBA_8 and TYPE_RGB_DBL as lcms2.h composes them.
        let rgba8: UInt32 = (4 << 16) | (1 << 7) | (3 << 3) | 1
        let rgbDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3) | 0
        // LittleCMS takes CMYK in doubles as ink percentages: Adobe's inverted bytes undone.
        let cmykDouble: UInt32 = (1 << 22) | (6 << 16) | (4 << 3) | 0
        let transform = cmsCreateTransform(
            input, cmyk ? cmykDouble : rgba8, output, rgbDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        var out = [Double](repeating: 0, count: count * 3)
        if cmyk {
            var inks = pixels.map { (255 - Double($0)) / 255 * 100 }
            inks.withUnsafeMutableBytes { source in
                out.withUnsafeMutableBytes { cmsDoTransform(transform, source.baseAddress, $0.baseAddress, UInt32(count)) }
            }
        } else {
            pixels.withUnsafeBytes { source in
                out.withUnsafeMutableBytes { cmsDoTransform(transform, source.baseAddress, $0.baseAddress, UInt32(count)) }
            }
        }
        return (0..<count).map { i in (clip(out[3 * i]), clip(out[3 * i + 1]), clip(out[3 * i + 2])) }
    }

    /// What LittleCMS makes of RGBA `samples` of 16 bits in the RGB `profile`, as sRGB in
    /// 0...1, clipped, relative colorimetric.
    static func toSRGB(samples: [UInt16], from profile: ColorProfile) -> [(Double, Double, Double)] {
        let input = profile.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let output = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        // TYPE_RGBA_16 and TYPE_RGB_DBL as lcms2.h composes them.
        let rgba16: UInt32 = (4 << 16) | (1 << 7) | (3 << 3) | 2
        let rgbDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3) | 0
        let transform = cmsCreateTransform(
            input, rgba16, output, rgbDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        let count = samples.count / 4
        var out = [Double](repeating: 0, count: count * 3)
        samples.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { cmsDoTransform(transform, source.baseAddress, $0.baseAddress, UInt32(count)) }
        }
        return (0..<count).map { i in (clip(out[3 * i]), clip(out[3 * i + 1]), clip(out[3 * i + 2])) }
    }

    /// A gray profile made by LittleCMS: D50 white, a pure `gamma` curve (1: linear light).
    static func grayProfile(gamma: Double) throws -> ColorProfile {
        let curve = cmsBuildGamma(nil, gamma)
        defer { cmsFreeToneCurve(curve) }
        let profile = cmsCreateGrayProfile(cmsD50_xyY(), curve)
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        _ = cmsSaveProfileToMem(profile, nil, &length)
        var bytes = [UInt8](repeating: 0, count: Int(length))
        _ = cmsSaveProfileToMem(profile, &bytes, &length)
        return try ColorProfile(iccData: Data(bytes))
    }

    /// What LittleCMS makes of gray `levels` of 16 bits in the gray `profile`, as sRGB in
    /// 0...1, clipped, relative colorimetric.
    static func toSRGB(grayLevels levels: [UInt16], from profile: ColorProfile) -> [(Double, Double, Double)] {
        // TYPE_GRAY_16 as lcms2.h composes it.
        levels.withUnsafeBytes { toSRGB(gray: $0, format: (3 << 16) | (1 << 3) | 2, count: levels.count, from: profile) }
    }

    /// What LittleCMS makes of gray `levels` of 8 bits in the gray `profile`.
    static func toSRGB(grayLevels levels: [UInt8], from profile: ColorProfile) -> [(Double, Double, Double)] {
        // TYPE_GRAY_8 as lcms2.h composes it.
        levels.withUnsafeBytes { toSRGB(gray: $0, format: (3 << 16) | (1 << 3) | 1, count: levels.count, from: profile) }
    }

    private static func toSRGB(
        gray levels: UnsafeRawBufferPointer, format: UInt32, count: Int, from profile: ColorProfile
    ) -> [(Double, Double, Double)] {
        let input = profile.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let output = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        let rgbDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3) | 0
        let transform = cmsCreateTransform(
            input, format, output, rgbDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        var out = [Double](repeating: 0, count: count * 3)
        out.withUnsafeMutableBytes { cmsDoTransform(transform, levels.baseAddress, $0.baseAddress, UInt32(count)) }
        return (0..<count).map { i in (clip(out[3 * i]), clip(out[3 * i + 1]), clip(out[3 * i + 2])) }
    }

    /// 8-bit sRGB RGBA as 0...1 triples.
    static func unit(_ pixels: [UInt8]) -> [(Double, Double, Double)] {
        stride(from: 0, to: pixels.count, by: 4).map { (i: Int) -> (Double, Double, Double) in
            let r = Double(pixels[i]) / 255
            let g = Double(pixels[i + 1]) / 255
            let b = Double(pixels[i + 2]) / 255
            return (r, g, b)
        }
    }

    /// CIEDE2000 between two sets of sRGB colours, pixel by pixel: mean and 95th percentile.
    static func deltaE2000(_ a: [(Double, Double, Double)], _ b: [(Double, Double, Double)]) -> (mean: Double, p95: Double) {
        precondition(a.count == b.count && !a.isEmpty)
        let labA = lab(a)
        let labB = lab(b)
        var differences = zip(labA, labB).map { pair -> Double in
            var (x, y) = pair
            return cmsCIE2000DeltaE(&x, &y, 1, 1, 1)
        }
        differences.sort()
        let mean = differences.reduce(0, +) / Double(differences.count)
        return (mean, differences[min(differences.count - 1, differences.count * 95 / 100)])
    }

    private static func lab(_ colours: [(Double, Double, Double)]) -> [cmsCIELab] {
        let srgb = cmsCreate_sRGBProfile()
        let labProfile = cmsCreateLab4Profile(nil)
        defer {
            cmsCloseProfile(srgb)
            cmsCloseProfile(labProfile)
        }
        let rgbDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3) | 0
        let labDouble: UInt32 = (1 << 22) | (10 << 16) | (3 << 3) | 0
        let transform = cmsCreateTransform(
            srgb, rgbDouble, labProfile, labDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        var flat = colours.flatMap { [$0.0, $0.1, $0.2] }
        var out = [cmsCIELab](repeating: cmsCIELab(L: 0, a: 0, b: 0), count: colours.count)
        flat.withUnsafeMutableBytes { source in
            out.withUnsafeMutableBytes { cmsDoTransform(transform, source.baseAddress, $0.baseAddress, UInt32(colours.count)) }
        }
        return out
    }

    private static func clip(_ value: Double) -> Double { min(1, max(0, value)) }
}

/// Test pictures: every hue at several saturations and lightnesses, smooth enough for
/// JPEG, in RGBA.
enum ColorTestImages {
    static let size = 64

    static func photo() -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(size * size * 4)
        for y in 0..<size {
            for x in 0..<size {
                let hue = Double(x) / Double(size) * 6
                let value = 0.15 + 0.85 * Double(y % 32) / 31
                let saturation = y < 32 ? 0.9 : 0.45
                let chroma = value * saturation
                let secondary = chroma * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1))
                let (r, g, b): (Double, Double, Double) =
                    switch Int(hue) {
                    case 0: (chroma, secondary, 0)
                    case 1: (secondary, chroma, 0)
                    case 2: (0, chroma, secondary)
                    case 3: (0, secondary, chroma)
                    case 4: (secondary, 0, chroma)
                    default: (chroma, 0, secondary)
                    }
                let base = value - chroma
                pixels += [r, g, b].map { UInt8(((base + $0) * 255).rounded()) } + [255]
            }
        }
        return pixels
    }

    static func bitmap(_ pixels: [UInt8]) throws -> ImageBitmap {
        try ImageBitmap(width: size, height: size, pixelFormat: .rgba8) { bytes, _ in bytes.copyBytes(from: pixels) }
    }
}
