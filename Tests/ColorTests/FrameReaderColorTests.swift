import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageWebP

@testable import WebImageAVIF

@Suite("Frame readers of a colour-managed registry")
struct FrameReaderColorTests {
    enum Source: String, CaseIterable, Sendable { case gifICC, avifNCLX, pngGamma, webpICC }

    static func file(_ source: Source) throws -> Data {
        let profile = try ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.70, 0.29), green: (0.17, 0.80), blue: (0.13, 0.04), gamma: 1.8)
        switch source {
        case .gifICC: return GIFColorWriter.gif(profile: profile.data)
        case .avifNCLX: return try AVIFCICPTests.file(primaries: 12, transfer: 13)
        case .pngGamma: return try PNGGammaChromaticityTests.file(PNGGammaChromaticityTests.gAMA(100_000))
        case .webpICC:
            var encoder = WebPEncoder(quality: 100, lossless: true)
            encoder.colorProfile = profile
            return try encoder.encode(ColorTestImages.bitmap(ColorTestImages.photo()))
        }
    }

    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        registry.register(AVIFDecoder())
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    @Test("a frame reader's frames are converted as the whole decode's are, and preserve keeps them", arguments: Source.allCases)
    func converted(source: Source) throws {
        let file = try Self.file(source)
        let decoder = try #require(try Self.registry.decoder(for: file) as? any AnimatedImageDecoding)
        let whole = try Self.registry.decode(file)
        let reader = try decoder.makeFrameReader(for: file, options: .default)
        let frame = try #require(try reader.nextFrame())
        let asWhole = frame.bitmap.packedBytes == whole.bitmap.packedBytes
        #expect(asWhole, "the frame is the whole decode's")
        #expect(reader.colorProfile == nil)

        let stored = try Self.registry.decode(file, options: DecodeOptions(color: .preserve))
        let preserving = try decoder.makeFrameReader(for: file, options: DecodeOptions(color: .preserve))
        let storedFrame = try #require(try preserving.nextFrame())
        let asStored = storedFrame.bitmap.packedBytes == stored.bitmap.packedBytes
        #expect(asStored, "the frame is the stored decode's")
        #expect(preserving.colorProfile == stored.colorProfile && stored.colorProfile != nil)
        let changed = storedFrame.bitmap.packedBytes != frame.bitmap.packedBytes
        #expect(changed, "the conversion changed the pixels")
    }
}
