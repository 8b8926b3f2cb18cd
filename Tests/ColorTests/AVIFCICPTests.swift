import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

@testable import WebImageAVIF

@Suite("AVIF nclx colour spaces (CICP)")
struct AVIFCICPTests {
    static let d65 = (0.3127, 0.3290)

    /// The sRGB curve, the PQ and HLG curves clipped at SDR reference white (203
    /// cd/m²), and a pure power: encoded value to linear light, written from the
    /// standards for this test.
    static func srgb(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func pq(_ v: Double) -> Double {
        let p = pow(v, 4096 / (2523 * 128))
        let nits = 10000 * pow(max(p - 0.8359375, 0) / (18.8515625 - 18.6875 * p), 16384 / 2610.0)
        return min(1, nits / 203)
    }
    static func hlg(_ v: Double) -> Double {
        let scene = v <= 0.5 ? v * v / 3 : (exp((v - 0.55991073) / 0.17883277) + 0.28466892) / 12
        return min(1, 1000 * pow(scene, 1.2) / 203)
    }

    struct Space: Sendable, CustomTestStringConvertible {
        var primaries: Int
        var transfer: Int
        var white: (Double, Double)
        var red: (Double, Double)
        var green: (Double, Double)
        var blue: (Double, Double)
        var curve: @Sendable (Double) -> Double
        var testDescription: String { "primaries \(primaries), transfer \(transfer)" }
    }

    static let displayP3 = Space(
        primaries: 12, transfer: 13, white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), curve: srgb)
    static let bt2020: [Space] = [
        Space(primaries: 9, transfer: 14, white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), curve: srgb),
        Space(primaries: 9, transfer: 16, white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), curve: pq),
        Space(primaries: 9, transfer: 18, white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), curve: hlg),
    ]
    static let others: [Space] = [
        Space(
            primaries: 11, transfer: 13, white: (0.314, 0.351), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
            curve: srgb),
        Space(primaries: 1, transfer: 4, white: d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curve: { pow($0, 2.2) }),
        Space(primaries: 1, transfer: 8, white: d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curve: { $0 }),
    ]

    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(AVIFDecoder())
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    static func file(primaries: Int, transfer: Int) throws -> Data {
        var encoder = AVIFEncoder(quality: 90, subsampling: .s444)
        encoder.statedColorSpace = CICP(colorPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: 6)
        return try encoder.encode(ColorTestImages.bitmap(ColorTestImages.photo()))
    }

    @Test(
        "an AVIF whose nclx states another space than sRGB decodes within CIEDE2000 1.5 of LittleCMS's own profile",
        arguments: [displayP3] + bt2020 + others)
    func converted(space: Space) throws {
        let file = try Self.file(primaries: space.primaries, transfer: space.transfer)
        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        let shown = try Self.registry.decode(file)
        #expect(shown.colorProfile == nil && shown.warnings.isEmpty, "\(shown.warnings)")
        #expect(shown.sourceColorProfile?.origin?.contains("AVIF nclx primaries \(space.primaries)") == true)
        let expected = ColorReference.toSRGB(
            stored.bitmap.packedBytes, white: space.white, red: space.red, green: space.green, blue: space.blue, curve: space.curve)
        let difference = ColorReference.deltaE2000(ColorReference.unit(shown.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "\(space.testDescription): mean \(difference.mean)")
        #expect(difference.p95 <= 4, "\(space.testDescription): p95 \(difference.p95)")
        #expect(shown.bitmap.packedBytes != stored.bitmap.packedBytes)
    }

    @Test(
        "sRGB, BT.709 and unspecified nclx values take no profile and no transform",
        arguments: [(1, 13), (1, 1), (1, 6), (2, 2), (2, 13), (0, 0)])
    func srgbCostsNothing(primaries: Int, transfer: Int) throws {
        let file = try Self.file(primaries: primaries, transfer: transfer)
        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        let shown = try Self.registry.decode(file)
        #expect(stored.colorProfile == nil && stored.sourceColorProfile == nil)
        #expect(shown.colorProfile == nil && shown.sourceColorProfile == nil && shown.warnings.isEmpty)
        #expect(shown.bitmap.packedBytes == stored.bitmap.packedBytes)
    }

    @Test("preserve keeps the stored pixels with the profile the nclx describes, which an encoder can write")
    func preserve() throws {
        let file = try Self.file(primaries: 12, transfer: 13)
        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        let profile = try #require(stored.colorProfile)
        #expect(profile.colorSpace == .rgb && !profile.isSRGB)
        #expect(profile.description.contains("AVIF nclx primaries 12, transfer 13"))
        var encoder = AVIFEncoder(quality: 90, subsampling: .s444)
        encoder.colorProfile = profile
        let rewritten = try Self.registry.decode(encoder.encode(stored.bitmap), options: DecodeOptions(color: .preserve))
        #expect(rewritten.colorProfile == profile)
    }

    @Test("a transfer function with no profile here (logarithmic) is shown as stored, with colorProfileIgnored")
    func unsupportedTransfer() throws {
        let file = try Self.file(primaries: 9, transfer: 9)
        let stored = try AVIFDecoder().decode(file, options: .default)
        let shown = try Self.registry.decode(file)
        #expect(shown.warnings.map(\.code) == [.colorProfileIgnored], "\(shown.warnings)")
        #expect(shown.colorProfile == nil && shown.sourceColorProfile == nil)
        #expect(shown.bitmap.packedBytes == stored.bitmap.packedBytes)
    }

    @Test("the code points' profile is sRGB by content when they describe sRGB by other numbers")
    func statedSRGBIsRecognised() throws {
        let profile = try ColorProfile.stated(
            white: Self.d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), transfer: .sRGB, origin: "test")
        #expect(profile.isSRGB)
        let gamma = try ColorProfile.stated(
            white: Self.d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), transfer: .gamma(2.2), origin: "test")
        #expect(!gamma.isSRGB)
    }

    @Test("chromaticities that make no space are refused as unusable", arguments: [[0.0, 0.0], [0.64, 0.33]])
    func impossibleChromaticities(blue: [Double]) {
        // A y of 0, or blue on red's point: no space.
        #expect(throws: ColorProfileError.self) {
            try ColorProfile.stated(
                white: Self.d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (blue[0], blue[1]), transfer: .sRGB, origin: "test")
        }
    }

    @Test("an AVIF whose matrix coefficients libavif cannot convert to RGB fails as unsupported, not corrupt")
    func unconvertibleMatrix() throws {
        var file = try Self.file(primaries: 1, transfer: 13)
        let nclx = try #require(file.firstRange(of: Data("nclx".utf8)))
        // nclx: primaries (2 bytes), transfer (2), matrix (2), full range (1). 10 is BT.2020
        // constant luminance, which libavif does not convert.
        file[nclx.upperBound + 4] = 0
        file[nclx.upperBound + 5] = 10
        #expect {
            try AVIFDecoder().decode(file, options: .default)
        } throws: { error in
            (error as? ImageDecodingError)?.code == .unsupported
        }
    }
}
