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
        let data = try sample.data()
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let prepared = AVIFDecoder().prepareDecode(data, options: .default)
            #expect(prepared.estimatedMemory != nil)
            return try prepared.decode()
        }
        #expect(log.formats == [.avif])
        #expect(!image.frames.isEmpty)
    }

    @Test(
        "the prepared estimate is the decoder's estimate, and covers the pixels of the same decode",
        arguments: Sample.allCases, options)
    func estimateAgreesWithDecode(sample: Sample, options: DecodeOptions) throws {
        let data = try sample.data()
        let decoder = AVIFDecoder()
        let prepared = decoder.prepareDecode(data, options: options)
        let estimate = try #require(prepared.estimatedMemory)
        #expect(estimate == decoder.estimatedMemory(decoding: data, options: options))
        let image = try prepared.decode()
        let held = image.frames.reduce(0) { $0 + $1.bitmap.packedRowBytes * $1.bitmap.height }
        #expect(estimate >= held, "\(estimate) bytes estimated, \(held) decoded")
        let plain = try decoder.decode(data, options: options)
        #expect(image.frames.map(\.bitmap) == plain.frames.map(\.bitmap))
        #expect(image.orientation == plain.orientation)
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
        let data = try sample.data()
        var damaged = [0, 1, 12, 24, 40, 64, data.count / 3, data.count * 2 / 3, data.count - 1].map { data.prefix($0) }
        damaged.append(data.prefix(64) + Data(repeating: 0x5A, count: 400))
        let decoder = AVIFDecoder()
        for options in [DecodeOptions.default, DecodeOptions(maxPixelCount: 100)] {
            for bytes in damaged + [data] {
                let decoded = Result { () throws(ImageDecodingError) in try decoder.decode(bytes, options: options) }
                let prepared = Result { () throws(ImageDecodingError) in try decoder.prepareDecode(bytes, options: options).decode() }
                #expect(prepared.error == decoded.error, "\(bytes.count) bytes of \(sample)")
            }
        }
    }
}
