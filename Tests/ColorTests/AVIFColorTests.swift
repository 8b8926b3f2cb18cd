import Foundation
import Testing
import WebImageAVIF
import WebImageColor
import WebImageCore
import WebImageDecoding

@Suite("AVIF colr ICC profiles")
struct AVIFColorTests {
    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(AVIFDecoder())
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    @Test("a tagged AVIF decodes within CIEDE2000 1.5 of LittleCMS; preserve keeps its profile")
    func tagged() throws {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        var encoder = AVIFEncoder(quality: 90, subsampling: .s444)
        encoder.colorProfile = profile
        let file = try encoder.encode(ColorTestImages.bitmap(ColorTestImages.photo()))
        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        #expect(stored.colorProfile == profile)
        let shown = try Self.registry.decode(file)
        #expect(shown.colorProfile == nil && shown.sourceColorProfile == profile)
        let expected = ColorReference.toSRGB(stored.bitmap.packedBytes, from: profile)
        let difference = ColorReference.deltaE2000(ColorReference.unit(shown.bitmap.packedBytes), expected)
        #expect(difference.mean <= 1.5, "mean \(difference.mean)")
        #expect(difference.p95 <= 4, "p95 \(difference.p95)")
    }
}
