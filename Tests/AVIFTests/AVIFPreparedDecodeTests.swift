import Foundation
import Testing
import WebImageAVIF
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageTestSupport

/// `prepareDecode`: an AVIF's container parsed once, for the memory estimate and the
/// decode.
@Suite("AVIFDecoder: a decode prepared from one container parse")
struct AVIFPreparedDecodeTests {
    enum Sample: String, CaseIterable, Sendable {
        case still, turned, sequence

        func data() throws -> Data {
            switch self {
            case .still: try AVIFEncoder(speed: 10).encode(AVIFTestImages.photo(width: 64, height: 40))
            case .turned: try AVIFEncoder(speed: 10).encode(AVIFTestImages.quadrants(), orientation: .right)
            case .sequence: try AVIFSequenceTests.sequence()
            }
        }
    }

    static let options: [DecodeOptions] = [.default, DecodeOptions(maxPixelSize: 20), DecodeOptions(firstFrameOnly: true)]

    @Test("the estimate and the decode parse the container once between them", arguments: Sample.allCases)
    func oneParse(sample: Sample) throws {
        try PreparedDecodeChecks.oneParse(AVIFDecoder(), try sample.data(), format: .avif)
    }

    @Test(
        "the prepared estimate is the decoder's estimate, and covers the pixels of the same decode",
        arguments: Sample.allCases, options)
    func estimateAgreesWithDecode(sample: Sample, options: DecodeOptions) throws {
        try PreparedDecodeChecks.estimateAgreesWithDecode(AVIFDecoder(), try sample.data(), options: options)
    }

    @Test("a prepared decode run twice gives the same image twice")
    func runsAgain() throws {
        let prepared = AVIFDecoder().prepareDecode(try Sample.sequence.data(), options: .default)
        let first = try prepared.decode()
        let second = try prepared.decode()
        #expect(first.frames.map(\.bitmap) == second.frames.map(\.bitmap))
    }

    @Test("a damaged or cut file: the prepared decode throws the error the decode throws", arguments: Sample.allCases)
    func damagedFilesKeepTheirErrors(sample: Sample) throws {
        PreparedDecodeChecks.damagedFilesKeepTheirErrors(
            AVIFDecoder(), try sample.data(), cuts: [0, 1, 12, 24, 40, 64], noiseAfter: 64, label: "\(sample)")
    }
}
