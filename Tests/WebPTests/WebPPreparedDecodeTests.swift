import Foundation
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport
import WebImageWebP

/// `prepareDecode`: a WebP's header read once, for the memory estimate and the decode.
@Suite("WebPDecoder: a decode prepared from one header read")
struct WebPPreparedDecodeTests {
    enum Sample: String, CaseIterable, Sendable {
        case lossy, turnedByEXIF, lossless, animation

        func data() throws -> Data {
            switch self {
            case .lossy: try WebPFixtureEncoder().encode(WebPTestImages.photo(width: 90, height: 60))
            case .turnedByEXIF: try WebPFixtureEncoder(exifOrientation: .right).encode(WebPTestImages.photo(width: 90, height: 60))
            case .lossless: try WebPFixtureEncoder(lossless: true).encode(WebPTestImages.translucent())
            case .animation: try WebPAnimationTests.animation()
            }
        }
    }

    static let options: [DecodeOptions] = [.default, DecodeOptions(maxPixelSize: 40), DecodeOptions(firstFrameOnly: true)]

    @Test("the estimate and the decode read the header once between them", arguments: Sample.allCases)
    func oneParse(sample: Sample) throws {
        try PreparedDecodeChecks.oneParse(WebPDecoder(), try sample.data(), format: .webp)
    }

    @Test(
        "the prepared estimate is the decoder's estimate, and covers the pixels of the same decode",
        arguments: Sample.allCases, options)
    func estimateAgreesWithDecode(sample: Sample, options: DecodeOptions) throws {
        try PreparedDecodeChecks.estimateAgreesWithDecode(WebPDecoder(), try sample.data(), options: options)
    }

    @Test("a damaged or cut file: the prepared decode throws the error the decode throws", arguments: Sample.allCases)
    func damagedFilesKeepTheirErrors(sample: Sample) throws {
        PreparedDecodeChecks.damagedFilesKeepTheirErrors(
            WebPDecoder(), try sample.data(), cuts: [0, 1, 12, 20, 30, 40], noiseAfter: 40, label: "\(sample)")
    }
}
