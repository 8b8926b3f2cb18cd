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
        let data = try sample.data()
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let prepared = WebPDecoder().prepareDecode(data, options: .default)
            #expect(prepared.estimatedMemory != nil)
            return try prepared.decode()
        }
        #expect(log.formats == [.webp])
        #expect(!image.frames.isEmpty)
    }

    @Test(
        "the prepared estimate is the decoder's estimate, and covers the pixels of the same decode",
        arguments: Sample.allCases, options)
    func estimateAgreesWithDecode(sample: Sample, options: DecodeOptions) throws {
        let data = try sample.data()
        let decoder = WebPDecoder()
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

    @Test("a damaged or cut file: the prepared decode throws the error the decode throws", arguments: Sample.allCases)
    func damagedFilesKeepTheirErrors(sample: Sample) throws {
        let data = try sample.data()
        var damaged = [0, 1, 12, 20, 30, 40, data.count / 3, data.count * 2 / 3, data.count - 1].map { data.prefix($0) }
        damaged.append(data.prefix(40) + Data(repeating: 0x5A, count: 400))
        let decoder = WebPDecoder()
        for options in [DecodeOptions.default, DecodeOptions(maxPixelCount: 100)] {
            for bytes in damaged + [data] {
                let decoded = Result { () throws(ImageDecodingError) in try decoder.decode(bytes, options: options) }
                let prepared = Result { () throws(ImageDecodingError) in try decoder.prepareDecode(bytes, options: options).decode() }
                #expect(prepared.error == decoded.error, "\(bytes.count) bytes of \(sample)")
            }
        }
    }
}
