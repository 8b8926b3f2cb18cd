import Foundation
import Synchronization
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageConcurrency

/// A survey sniffs the format once and reads the header once; the decodes prepared from
/// it, for options chosen after reading that header, read no header again and give what
/// a decode prepared from the bytes gives: what an image proxy runs for every render.
@Suite("A source surveyed once, its decodes prepared from that header")
struct SurveyedSourceTests {
    let registry = ImageDecoderRegistry.standard

    /// What a proxy asks after reading the header: the file whole, a thumbnail, a first
    /// frame only, and limits that a multi-frame file is over (all its frames, or too many
    /// of them) while its first frame is within.
    static let options: [DecodeOptions] =
        withinLimits + [
            DecodeOptions(maxPixelCount: 64 * 48 * 3), DecodeOptions(maxPixelCount: 64 * 48 * 3, firstFrameOnly: true),
            DecodeOptions(maxFrameCount: 2), DecodeOptions(firstFrameOnly: true, maxFrameCount: 1),
        ]

    /// The options every sample decodes with. (A decode over a limit may read the header
    /// again to throw the error a decode of the bytes throws.)
    static let withinLimits: [DecodeOptions] = [
        .default, DecodeOptions(maxPixelSize: 100), DecodeOptions(maxPixelSize: 24, firstFrameOnly: true),
    ]

    @Test("the survey and a decode prepared from it read the header once between them", arguments: PreparedSample.allCases, withinLimits)
    func oneParse(sample: PreparedSample, options: DecodeOptions) throws {
        let data = try sample.data()
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let surveyed = try registry.survey(data)
            #expect(surveyed.header.info.format == sample.format)
            let prepared = surveyed.prepareDecode(options: options)
            #expect(prepared.estimatedMemory != nil)
            return try prepared.decode()
        }
        #expect(log.formats == [sample.format], "one parse, of the sniffed format")
        #expect(!image.frames.isEmpty)
    }

    @Test(
        "a decode prepared from the survey is the decode prepared from the bytes: estimate, pixels, frames, or error",
        arguments: PreparedSample.allCases, options)
    func agreesWithPreparedDecode(sample: PreparedSample, options: DecodeOptions) throws {
        try SurveyedDecodeChecks.agreesWithPreparedDecode(sample.decoder, try sample.data(), options: options)
    }

    @Test("the registry's survey is the decoder's, found by one sniff", arguments: PreparedSample.allCases)
    func registrySurvey(sample: PreparedSample) throws {
        let data = try sample.data()
        let surveyed = try registry.survey(data)
        #expect(surveyed.header == (try registry.header(of: data)))
        let image = try surveyed.prepareDecode(options: .default).decode()
        #expect(image.frames.map(\.bitmap) == (try registry.decode(data)).frames.map(\.bitmap))
    }

    @Test("one survey prepares decodes for several options, each its own", arguments: PreparedSample.allCases)
    func severalOptions(sample: PreparedSample) throws {
        let data = try sample.data()
        let surveyed = try registry.survey(data)
        for options in Self.options {
            let image = Result { () throws(ImageDecodingError) in try surveyed.prepareDecode(options: options).decode() }
            let plain = Result { () throws(ImageDecodingError) in try registry.decode(data, options: options) }
            #expect(image.error == plain.error)
            #expect((try? image.get().frames.map(\.bitmap)) == (try? plain.get().frames.map(\.bitmap)))
        }
    }

    @Test(
        "a damaged or cut file: the survey throws what readHeader throws, its decodes what the decode throws",
        arguments: PreparedSample.allCases)
    func damagedFilesKeepTheirErrors(sample: PreparedSample) throws {
        SurveyedDecodeChecks.damagedFilesKeepTheirErrors(
            sample.decoder, try sample.data(), cuts: [1, 8, 12, 20, 26, 30, 40, 64], noiseAfter: 40, label: "\(sample)")
    }

    @Test("bytes in no known format fail to survey with the errors of finding a decoder")
    func unknownBytes() {
        #expect(Result { () throws(ImageDecodingError) in try registry.survey(Data()) }.error?.code == .empty)
        #expect(Result { () throws(ImageDecodingError) in try registry.survey(Data("not an image".utf8)) }.error?.code == .unknownFormat)
    }

    @Test("a decoder that keeps the protocol's survey reads its header, then prepares each decode as it always did")
    func defaultSurvey() throws {
        let decoder = HeaderNotingDecoder()
        let data = try PreparedSample.png.data()
        let surveyed = try decoder.survey(data)
        #expect(decoder.calls == ["readHeader"])
        #expect(surveyed.header == (try PNGDecoder().readHeader(data)))
        let image = try surveyed.prepareDecode(options: DecodeOptions(maxPixelSize: 100)).decode()
        #expect(decoder.calls == ["readHeader", "prepareDecode"])
        #expect(
            image.frames.map(\.bitmap) == (try PNGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 100))).frames.map(\.bitmap))
        #expect(
            Result { () throws(ImageDecodingError) in try CheckerDecoder().survey(Data("CHECK".utf8)) }.error?.code == .unsupported,
            "a decoder that reads no header on its own surveys nothing")
    }
}

extension PreparedSample {
    /// The built-in decoder for the sample's format.
    var decoder: any ImageDecoding {
        switch format {
        case .png: PNGDecoder()
        case .jpeg: JPEGDecoder()
        default: GIFDecoder()
        }
    }
}

/// A PNG decoder with a header read and a prepared decode of its own, but the protocol's
/// survey, noting which of its requirements are called.
final class HeaderNotingDecoder: ImageDecoding {
    private let log = Locked<[String]>([])
    private let inner = PNGDecoder()

    var calls: [String] { log.withLock { $0 } }
    var format: ImageFormat { .png }

    private func note(_ call: String) { log.withLock { $0.append(call) } }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        note("decode")
        return try inner.decode(data, options: options)
    }

    func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        note("readHeader")
        return try inner.readHeader(data)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        note("prepareDecode")
        return inner.prepareDecode(data, options: options)
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        inner.makeIncrementalDecoder(options: options)
    }
}
