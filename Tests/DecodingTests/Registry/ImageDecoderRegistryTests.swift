import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// A decoder of a made-up format, to show that users can add their own.
struct CheckerDecoder: ImageDecoding {
    static let checker = ImageFormat("checker", mimeType: "image/x-checker")
    var format: ImageFormat { Self.checker }
    func recognizes(_ header: Data) -> Bool { header.starts(with: Array("CHECK".utf8)) }
    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        let side = Int(data.last ?? 0)
        guard side > 0 else { throw ImageDecodingError(.invalidDimensions, "side 0", format: format) }
        let bitmap = try ImageBitmap(width: side, height: side, pixelFormat: .gray8) { bytes, stride in
            for y in 0..<side { for x in 0..<side { bytes[y * stride + x] = (x + y) % 2 == 0 ? 255 : 0 } }
        }
        return DecodedImage(format: format, frames: [ImageFrame(bitmap: bitmap)])
    }
    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        BufferingDecoder(decoder: self, options: options)
    }
}

/// The simplest honest incremental decoder: keep the bytes, decode at the end.
final class BufferingDecoder: IncrementalImageDecoding {
    let decoder: CheckerDecoder
    let options: DecodeOptions
    var data = Data()
    init(decoder: CheckerDecoder, options: DecodeOptions) {
        self.decoder = decoder
        self.options = options
    }
    var format: ImageFormat { decoder.format }
    var info: ImageInfo? { nil }
    var revision: Int { 0 }
    func append(_ data: Data) throws(ImageDecodingError) { self.data.append(data) }
    func partialImage() throws(ImageDecodingError) -> DecodedImage? { nil }
    func finish() throws(ImageDecodingError) -> DecodedImage { try decoder.decode(data, options: options) }
}

@Suite("Decoder registry")
struct ImageDecoderRegistryTests {
    @Test("empty, unknown and recognised-but-unsupported data give distinct errors")
    func errors() {
        let registry = ImageDecoderRegistry(decoders: [PNGDecoder()])
        func code(_ bytes: [UInt8]) -> ImageDecodingError.Code? {
            if case .failure(let error) = Result.capture({ try registry.decode(Data(bytes)) }) { return error.code }
            return nil
        }
        #expect(code([]) == .empty)
        #expect(code(Array("<!doctype html>".utf8)) == .unknownFormat)
        #expect(code(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .unsupported)
        #expect(code([0xFF, 0xD8, 0xFF, 0xE0]) == .unsupported, "JPEG is not registered in this registry")
    }

    @Test("a registered decoder takes its format's files")
    func customDecoder() throws {
        var registry = ImageDecoderRegistry(decoders: [PNGDecoder()])
        registry.register(CheckerDecoder())
        let image = try registry.decode(Data(Array("CHECK".utf8) + [3]))
        #expect(image.format == CheckerDecoder.checker)
        #expect(image.bitmap.packedBytes == [255, 0, 255, 0, 255, 0, 255, 0, 255])
        #expect(registry.decoders.first?.format == CheckerDecoder.checker)

        let incremental = registry.makeIncrementalDecoder(options: .default)
        try incremental.append(Data(Array("CHECK".utf8)))
        try incremental.append(Data([2]))
        #expect(try incremental.finish().bitmap.packedBytes == [255, 0, 0, 255])
    }

    @Test("the incremental decoder waits for enough bytes to tell the format", .enabled(if: Corpus.isAvailable, Corpus.missingMessage))
    func sniffingIncremental() throws {
        let data = try Corpus.data("png/pngsuite/basn2c08.png")
        let decoder = ImageDecoderRegistry(decoders: [PNGDecoder()]).makeIncrementalDecoder(options: .default)
        for slice in data.randomSlices(maxSlice: 5, seed: 3) { try decoder.append(slice) }
        #expect(decoder.format == .png)
        #expect(decoder.info?.size == PixelSize(width: 32, height: 32))
        #expect(try decoder.finish().bitmap == (try PNGDecoder().decode(data)).bitmap)
    }

    @Test("a stream shorter than the sniff length still decodes or fails clearly")
    func shortStream() {
        let decoder = ImageDecoderRegistry(decoders: [PNGDecoder()]).makeIncrementalDecoder(options: .default)
        #expect(throws: ImageDecodingError.self) {
            try decoder.append(Data([0x89, 0x50]))
            _ = try decoder.finish()
        }
    }
}
