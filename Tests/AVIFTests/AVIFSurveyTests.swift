import Foundation
import Testing
import WebImageAVIF
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageTestSupport

/// `survey`: an AVIF's container parsed once, for the header's facts and for the first
/// decode prepared from it.
@Suite("AVIFDecoder: a source surveyed once, its decodes prepared from that parse")
struct AVIFSurveyTests {
    typealias Sample = AVIFPreparedDecodeTests.Sample

    @Test(
        "the survey and the first decode prepared from it parse the container once between them",
        arguments: Sample.allCases, AVIFPreparedDecodeTests.options)
    func oneParse(sample: Sample, options: DecodeOptions) throws {
        try SurveyedDecodeChecks.oneParse(AVIFDecoder(), try sample.data(), format: .avif, options: options)
    }

    @Test(
        "a decode prepared from the survey is the decode prepared from the bytes, within its limits or over them",
        arguments: Sample.allCases, AVIFPreparedDecodeTests.options + [DecodeOptions(maxPixelCount: 100), DecodeOptions(maxFrameCount: 2)])
    func agreesWithPreparedDecode(sample: Sample, options: DecodeOptions) throws {
        try SurveyedDecodeChecks.agreesWithPreparedDecode(AVIFDecoder(), try sample.data(), options: options)
    }

    @Test("a survey prepares a second decode, which parses again, with the same image", arguments: Sample.allCases)
    func secondDecode(sample: Sample) throws {
        let surveyed = try AVIFDecoder().survey(try sample.data())
        let first = try surveyed.prepareDecode(options: .default).decode()
        let log = HeaderParseLog()
        let second = try HeaderParseLog.$current.withValue(log) { try surveyed.prepareDecode(options: .default).decode() }
        #expect(log.formats == [.avif])
        #expect(first.frames.map(\.bitmap) == second.frames.map(\.bitmap))
    }

    @Test("a damaged or cut file: the survey throws what readHeader throws, its decodes what the decode throws", arguments: Sample.allCases)
    func damagedFilesKeepTheirErrors(sample: Sample) throws {
        SurveyedDecodeChecks.damagedFilesKeepTheirErrors(
            AVIFDecoder(), try sample.data(), cuts: [0, 1, 12, 24, 40, 64], noiseAfter: 64, label: "\(sample)")
    }
}
