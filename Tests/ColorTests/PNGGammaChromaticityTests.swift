import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageTestSupport

@Suite("PNG gAMA and cHRM without iCCP")
struct PNGGammaChromaticityTests {
    static let srgbPoints = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
    static let widePoints = [0.3127, 0.3290, 0.70, 0.29, 0.17, 0.80, 0.13, 0.04]

    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    static func gAMA(_ stored: UInt32) -> [UInt8] {
        PNGChunks.chunk("gAMA", [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: stored >> $0) })
    }

    static func cHRM(_ points: [Double]) -> [UInt8] {
        PNGChunks.chunk(
            "cHRM",
            points.flatMap { value in
                let stored = UInt32((value * 100_000).rounded())
                return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: stored >> $0) }
            })
    }

    /// The test photo as a PNG with `chunks` after IHDR.
    static func file(_ chunks: [UInt8]...) throws -> Data {
        let png = try PNGEncoder().encode(ColorTestImages.bitmap(ColorTestImages.photo()))
        return PNGColorChunkWriter.insertAfterIHDR(chunks.flatMap { $0 }, into: png)
    }

    static func expectClose(_ image: DecodedImage, to expected: [(Double, Double, Double)], _ label: String) {
        let difference = ColorReference.deltaE2000(ColorReference.unit(image.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "\(label): mean \(difference.mean)")
        #expect(difference.p95 <= 4, "\(label): p95 \(difference.p95)")
    }

    static func reference(_ points: [Double], exponent: Double?) -> [(Double, Double, Double)] {
        let curve: (Double) -> Double = exponent.map { e in { pow($0, e) } } ?? AVIFCICPTests.srgb
        return ColorReference.toSRGB(
            ColorTestImages.photo(), white: (points[0], points[1]), red: (points[2], points[3]), green: (points[4], points[5]),
            blue: (points[6], points[7]), curve: curve)
    }

    @Test("gAMA and cHRM together decode as LittleCMS converts the space they describe")
    func gammaAndChromaticities() throws {
        let image = try Self.registry.decode(Self.file(Self.gAMA(55_556), Self.cHRM(Self.widePoints)))
        #expect(image.colorProfile == nil && image.warnings.isEmpty, "\(image.warnings)")
        #expect(image.sourceColorProfile?.origin == "PNG gAMA 55556 cHRM")
        Self.expectClose(image, to: Self.reference(Self.widePoints, exponent: 1.8), "gAMA 55556 + wide cHRM")
    }

    @Test("gAMA alone is that gamma on sRGB's primaries")
    func gammaAlone() throws {
        let image = try Self.registry.decode(Self.file(Self.gAMA(100_000)))
        #expect(image.sourceColorProfile?.origin == "PNG gAMA 100000")
        Self.expectClose(image, to: Self.reference(Self.srgbPoints, exponent: 1), "gAMA 100000")
        #expect(image.bitmap.packedBytes != ColorTestImages.photo())
    }

    @Test("a gray decode of a file with a profile is converted too: a linear gAMA's levels come out on the sRGB curve")
    func grayDecode() throws {
        let file = try Self.file(Self.gAMA(100_000))
        let stored = try Self.registry.decode(file, options: DecodeOptions(pixelFormat: .gray8, color: .preserve))
        let shown = try Self.registry.decode(file, options: DecodeOptions(pixelFormat: .gray8))
        #expect(stored.bitmap.pixelFormat == .gray8 && shown.bitmap.pixelFormat == .gray8)
        #expect(shown.colorProfile == nil && stored.colorProfile != nil)
        func encoded(_ linear: Double) -> Double { linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055 }
        let misses = zip(stored.bitmap.packedBytes, shown.bitmap.packedBytes).filter { level, converted in
            abs(Double(converted) - 255 * encoded(Double(level) / 255)) > 1.5
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
        #expect(stored.bitmap.packedBytes != shown.bitmap.packedBytes)
    }

    @Test("cHRM alone is those primaries with the sRGB curve")
    func chromaticitiesAlone() throws {
        let image = try Self.registry.decode(Self.file(Self.cHRM(Self.widePoints)))
        Self.expectClose(image, to: Self.reference(Self.widePoints, exponent: nil), "wide cHRM")
    }

    @Test(
        "gAMA and cHRM that describe sRGB take no profile and no transform",
        arguments: [[45_455, 1], [45_455, 0], [45_000, 1], [46_000, 1], [0, 1]])
    func srgbCostsNothing(values: [Int]) throws {
        var chunks: [[UInt8]] = values[0] > 0 ? [Self.gAMA(UInt32(values[0]))] : []
        if values[1] == 1 { chunks.append(Self.cHRM(Self.srgbPoints)) }
        let image = try Self.registry.decode(Self.file(chunks.flatMap { $0 }))
        #expect(image.colorProfile == nil && image.sourceColorProfile == nil && image.warnings.isEmpty)
        #expect(image.bitmap.packedBytes == ColorTestImages.photo())
    }

    @Test("an sRGB or iCCP chunk overrides gAMA and cHRM")
    func overridden() throws {
        let srgb = try Self.registry.decode(Self.file(Self.gAMA(100_000), PNGChunks.chunk("sRGB", [0])))
        #expect(srgb.sourceColorProfile == nil && srgb.bitmap.packedBytes == ColorTestImages.photo())
        let profile = try ColorProfile.rgb(white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 1.5)
        let tagged = try Self.registry.decode(
            Self.file(Self.gAMA(100_000), PNGColorChunkWriter.iCCP(name: "p", storing: profile.data), Self.cHRM(Self.widePoints)))
        #expect(tagged.sourceColorProfile == profile)
    }

    @Test("a gAMA of 0, a short cHRM or a cHRM with a bad CRC is ignored with colorProfileIgnored")
    func broken() throws {
        var badCRC = Self.cHRM(Self.widePoints)
        badCRC[badCRC.count - 1] ^= 0xFF
        let cases: [[UInt8]] = [Self.gAMA(0), PNGChunks.chunk("cHRM", [0, 1, 2, 3]), badCRC]
        for chunk in cases {
            let image = try Self.registry.decode(Self.file(chunk))
            #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(image.warnings)")
            #expect(image.bitmap.packedBytes == ColorTestImages.photo())
        }
    }

    @Test("impossible chromaticities in cHRM are ignored with colorProfileIgnored")
    func impossible() throws {
        let image = try Self.registry.decode(Self.file(Self.cHRM([0.3127, 0.3290, 0.64, 0.33, 0.64, 0.33, 0.15, 0.06])))
        #expect(image.warnings.map(\.code) == [.colorProfileIgnored], "\(image.warnings)")
        #expect(image.bitmap.packedBytes == ColorTestImages.photo())
    }
}
