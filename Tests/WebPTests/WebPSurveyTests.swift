import Foundation
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport
import WebImageWebP

/// `survey`: a WebP's header read once, for the header's facts and for each decode
/// prepared from it.
@Suite("WebPDecoder: a source surveyed once, its decodes prepared from that header")
struct WebPSurveyTests {
    typealias Sample = WebPPreparedDecodeTests.Sample

    @Test(
        "the survey and a decode prepared from it read the header once between them", arguments: Sample.allCases,
        WebPPreparedDecodeTests.options)
    func oneParse(sample: Sample, options: DecodeOptions) throws {
        try SurveyedDecodeChecks.oneParse(WebPDecoder(), try sample.data(), format: .webp, options: options)
    }

    @Test(
        "a decode prepared from the survey is the decode prepared from the bytes",
        arguments: Sample.allCases, WebPPreparedDecodeTests.options + [DecodeOptions(maxPixelCount: 100)])
    func agreesWithPreparedDecode(sample: Sample, options: DecodeOptions) throws {
        try SurveyedDecodeChecks.agreesWithPreparedDecode(WebPDecoder(), try sample.data(), options: options)
    }

    @Test("a damaged or cut file: the survey throws what readHeader throws, its decodes what the decode throws", arguments: Sample.allCases)
    func damagedFilesKeepTheirErrors(sample: Sample) throws {
        SurveyedDecodeChecks.damagedFilesKeepTheirErrors(
            WebPDecoder(), try sample.data(), cuts: [0, 1, 12, 20, 30, 40], noiseAfter: 40, label: "\(sample)")
    }
}
