import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// A registry with a colour engine surveys a source and prepares its decodes from that
/// one header read, converting as a decode prepared from the bytes converts: inside the
/// decode for CMYK JPEGs and 16-bit PNGs, after it for the others.
@Suite("Colour-managed decodes prepared from a survey")
struct SurveyedColorTests {
    static var registry: ImageDecoderRegistry {
        var registry = ImageDecoderRegistry.standard
        registry.colorConverter = LittleCMSColorConverter()
        return registry
    }

    static let options: [DecodeOptions] = [
        .default, DecodeOptions(maxPixelSize: 20), DecodeOptions(color: .preserve),
    ]

    /// A CMYK JPEG, and a 16-bit PNG in a wide gamut, each converted inside its decode.
    static func files() throws -> [Data] {
        let wide = try APNG16BitColorTests.profile()
        return [
            try CMYKJPEGTests.cmykJPEG(CMYKJPEGTests.inks(), profile: nil).file,
            PNG16Writer.png(
                width: PNG16BitColorTests.width, height: PNG16BitColorTests.height, samples: PNG16BitColorTests.samples,
                interlaced: false, profile: wide),
        ]
    }

    @Test("the decode prepared from a survey gives the pixels and profile of the decode prepared from the bytes", arguments: options)
    func agreesWithPreparedDecode(options: DecodeOptions) throws {
        for data in try Self.files() {
            let surveyed = try Self.registry.survey(data)
            #expect(surveyed.header == (try Self.registry.header(of: data)))
            let image = try surveyed.prepareDecode(options: options).decode()
            let direct = try Self.registry.prepareDecode(data, options: options).decode()
            #expect(image.frames.map(\.bitmap) == direct.frames.map(\.bitmap))
            #expect(image.colorProfile == direct.colorProfile)
            #expect(image.sourceColorProfile == direct.sourceColorProfile)
        }
    }
}
