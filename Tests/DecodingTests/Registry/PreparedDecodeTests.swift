import Foundation
import Synchronization
import Testing
import WebImageCore
@_spi(Testing) import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageConcurrency

/// One file of each built-in format, made by the fixture encoders at test time.
enum PreparedSample: String, CaseIterable, Sendable {
    case png, jpeg, progressiveJPEG, gif, apng

    var format: ImageFormat {
        switch self {
        case .png, .apng: .png
        case .jpeg, .progressiveJPEG: .jpeg
        case .gif: .gif
        }
    }

    func data() throws -> Data {
        switch self {
        case .png: try PNGFixtureEncoder().encode(SyntheticImage.translucent(width: 300, height: 200))
        case .jpeg: try JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 320, height: 240))
        case .progressiveJPEG: try JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.photo(width: 160, height: 120))
        case .gif: try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 64, height: 48, frameCount: 12))
        case .apng:
            try APNGBuilder(
                width: 40, height: 30,
                frames: [
                    .init(bitmap: SyntheticImage.translucent(width: 40, height: 30, seed: 1)),
                    .init(bitmap: SyntheticImage.translucent(width: 20, height: 10, seed: 2), x: 5, y: 5),
                    .init(bitmap: SyntheticImage.photo(width: 40, height: 30, seed: 3)),
                ]
            ).build()
        }
    }
}

/// Options a load asks with: the file as it is, and a thumbnail.
let preparedOptions: [DecodeOptions] = [.default, DecodeOptions(maxPixelSize: 100)]

/// The bytes of pixels a decoded image holds.
func heldBytes(_ image: DecodedImage) -> Int {
    image.frames.reduce(0) { $0 + $1.bitmap.packedRowBytes * $1.bitmap.height }
}

/// A prepared decode sniffs the format once and parses the header once, and gives the
/// memory estimate and the decode from that one parse: what a load with a memory budget
/// runs for every image.
@Suite("A decode prepared from one header parse")
struct PreparedDecodeTests {
    let registry = ImageDecoderRegistry.standard

    @Test("the estimate and the decode read the header once between them", arguments: PreparedSample.allCases)
    func oneParse(sample: PreparedSample) throws {
        let data = try sample.data()
        let log = HeaderParseLog()
        let image = try HeaderParseLog.$current.withValue(log) {
            let prepared = try registry.prepareDecode(data, options: .default)
            #expect(prepared.format == sample.format)
            #expect(prepared.estimatedMemory != nil)
            return try prepared.decode()
        }
        #expect(log.formats == [sample.format], "one parse, of the sniffed format")
        #expect(!image.frames.isEmpty)
    }

    @Test(
        "asked separately, the estimate and the decode each walk the header",
        arguments: [PreparedSample.png, .gif, .apng])
    func separateCallsParseTwice(sample: PreparedSample) throws {
        let data = try sample.data()
        let log = HeaderParseLog()
        try HeaderParseLog.$current.withValue(log) {
            _ = registry.estimatedMemory(decoding: data, options: .default)
            _ = try registry.decode(data)
        }
        #expect(log.count(of: sample.format) == 2)
    }

    @Test("a decode with no estimate reads the header at most once", arguments: PreparedSample.allCases)
    func decodeAlone(sample: PreparedSample) throws {
        let data = try sample.data()
        let log = HeaderParseLog()
        _ = try HeaderParseLog.$current.withValue(log) { try registry.decode(data) }
        #expect(log.formats.count <= 1)
        let prepared = HeaderParseLog()
        _ = try HeaderParseLog.$current.withValue(prepared) { try registry.prepareDecode(data, options: .default).decode() }
        #expect(prepared.formats.count <= 1, "a prepared decode whose estimate nobody asks for")
    }

    @Test(
        "the prepared estimate is the decoder's estimate, and covers the pixels the prepared decode returns",
        arguments: PreparedSample.allCases, preparedOptions)
    func estimateAgreesWithDecode(sample: PreparedSample, options: DecodeOptions) throws {
        let data = try sample.data()
        let prepared = try registry.prepareDecode(data, options: options)
        let estimate = try #require(prepared.estimatedMemory)
        #expect(estimate == registry.estimatedMemory(decoding: data, options: options))
        let image = try prepared.decode()
        #expect(estimate >= heldBytes(image), "\(estimate) bytes estimated, \(heldBytes(image)) decoded")
        let plain = try registry.decode(data, options: options)
        #expect(image.frames.map(\.bitmap) == plain.frames.map(\.bitmap), "the same pixels as a decode of the bytes")
        #expect(image.sourceSize == plain.sourceSize)
        #expect(image.loopCount == plain.loopCount)
    }

    @Test("a still decoded at its size holds exactly the estimate", arguments: [PreparedSample.png, .jpeg])
    func stillEstimateIsExact(sample: PreparedSample) throws {
        let prepared = try registry.prepareDecode(sample.data(), options: .default)
        #expect(try prepared.estimatedMemory == heldBytes(prepared.decode()))
    }

    @Test("a prepared decode can run again, with the same result")
    func runsAgain() throws {
        let prepared = try registry.prepareDecode(PreparedSample.gif.data(), options: .default)
        let first = try prepared.decode()
        let second = try prepared.decode()
        #expect(first.frames.map(\.bitmap) == second.frames.map(\.bitmap))
    }

    @Test("the registry sniffs once and asks the decoder it found to prepare, nothing else")
    func registrySniffsOnce() throws {
        let spy = SpyDecoder()
        var registry = ImageDecoderRegistry.standard
        registry.register(spy)
        let data = try PreparedSample.png.data()
        let prepared = try registry.prepareDecode(data, options: .default)
        _ = prepared.estimatedMemory
        _ = try prepared.decode()
        #expect(spy.calls == ["recognizes", "prepareDecode"])
    }

    @Test("a decoder that does not prepare gets its estimate and decode called, each once")
    func defaultPreparation() throws {
        let decoder = CheckerDecoder()
        let data = Data("CHECK".utf8) + Data([4])
        let prepared = decoder.prepareDecode(data, options: .default)
        #expect(prepared.format == CheckerDecoder.checker)
        #expect(prepared.estimatedMemory == nil, "the protocol's default estimate")
        #expect(try prepared.decode().size == PixelSize(width: 4, height: 4))
    }

    @Test("bytes in no known format fail to prepare with the errors of finding a decoder")
    func unknownBytes() {
        #expect(throws: ImageDecodingError.self) { try registry.prepareDecode(Data(), options: .default) }
        let unknown = Result { () throws(ImageDecodingError) in try registry.prepareDecode(Data("not an image".utf8), options: .default) }
        #expect(unknown.error?.code == .unknownFormat)
        let webp = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
        #expect(Result { () throws(ImageDecodingError) in try registry.prepareDecode(webp, options: .default) }.error?.code == .unsupported)
    }

    @Test(
        "a damaged or cut file: the prepared decode throws the error the decode throws",
        arguments: PreparedSample.allCases)
    func damagedFilesKeepTheirErrors(sample: PreparedSample) throws {
        let data = try sample.data()
        var damaged = [1, 8, 12, 20, 26, 30, 40, 64, data.count / 3, data.count * 2 / 3, data.count - 1].map { data.prefix($0) }
        // The header whole, then noise where the rest of the file should be.
        damaged.append(data.prefix(40) + Data((0..<400).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        if sample.format == .jpeg { damaged.append(DamagedImages.jpegHeaderThenNoise(data)) }
        var tight = DecodeOptions.default
        tight.maxPixelCount = 100
        for options in [DecodeOptions.default, tight] {
            for bytes in damaged + [data] {
                let decoded = Result { () throws(ImageDecodingError) in try registry.decode(bytes, options: options) }
                let prepared = Result { () throws(ImageDecodingError) in try registry.prepareDecode(bytes, options: options).decode() }
                #expect(prepared.error == decoded.error, "\(bytes.count) bytes of \(sample)")
                if case .success(let image) = decoded, case .success(let same) = prepared {
                    #expect(image.frames.map(\.bitmap) == same.frames.map(\.bitmap))
                }
            }
        }
    }
}

/// A PNG decoder that notes which of its requirements are called.
final class SpyDecoder: ImageDecoding {
    private let log = Locked<[String]>([])
    private let inner = PNGDecoder()

    var calls: [String] { log.withLock { $0 } }
    var format: ImageFormat { .png }

    private func note(_ call: String) { log.withLock { $0.append(call) } }

    func recognizes(_ header: Data) -> Bool {
        note("recognizes")
        return inner.recognizes(header)
    }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        note("decode")
        return try inner.decode(data, options: options)
    }

    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        note("estimatedMemory")
        return inner.estimatedMemory(decoding: data, options: options)
    }

    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        note("prepareDecode")
        return inner.prepareDecode(data, options: options)
    }

    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        inner.makeIncrementalDecoder(options: options)
    }
}
