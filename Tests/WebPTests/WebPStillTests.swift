import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport
import WebImageWebP

/// Still WebP files, made at test time with libwebp's encoder.
@Suite("WebPDecoder: still images")
struct WebPStillTests {
    @Test("a lossless file decodes to exactly the pixels encoded, colour under transparent pixels included")
    func losslessRoundTrip() throws {
        let source = try WebPTestImages.translucent()
        let data = try WebPFixtureEncoder(lossless: true).encode(source)
        let image = try WebPDecoder().decode(data)
        #expect(image.format == .webp)
        #expect(image.size == source.size)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero)
        #expect(image.bitmap.packedBytes == source.packedBytes)
    }

    @Test("a lossy file decodes close to the source, opaque pixels with alpha 255")
    func lossyDecode() throws {
        let source = try WebPTestImages.photo()
        let data = try WebPFixtureEncoder(quality: 90).encode(source)
        let image = try WebPDecoder().decode(data)
        #expect(image.size == source.size)
        #expect(PixelDifference.mean(image.bitmap, source) < 4)
        let bytes = image.bitmap.packedBytes
        #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 })
    }

    @Test("maxPixelSize scales while decoding, to the size every decoder picks")
    func scaledDecode() throws {
        let source = try WebPTestImages.photo(width: 400, height: 300)
        let data = try WebPFixtureEncoder(lossless: true).encode(source)
        let options = DecodeOptions(maxPixelSize: 100)
        let image = try WebPDecoder().decode(data, options: options)
        #expect(image.size == PixelSize(width: 100, height: 75))
        #expect(image.sourceSize == source.size)
        let reference = try BoxFilterReference.downsample(source, to: image.size)
        #expect(PixelDifference.mean(image.bitmap, reference) < 6)
    }

    @Test("gray output converts after the decode")
    func grayOutput() throws {
        let data = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.solid((200, 100, 50, 255)))
        let image = try WebPDecoder().decode(data, options: DecodeOptions(pixelFormat: .gray8))
        #expect(image.bitmap.pixelFormat == .gray8)
        let expected = UInt8((Double(200) * 0.299 + Double(100) * 0.587 + Double(50) * 0.114).rounded())
        #expect(image.bitmap.packedBytes.allSatisfy { abs(Int($0) - Int(expected)) <= 1 })
    }

    @Test("the EXIF chunk's orientation is reported, and applied when asked", arguments: [ImageOrientation.right, .down, .leftMirrored])
    func orientation(_ orientation: ImageOrientation) throws {
        let source = try WebPTestImages.translucent(width: 40, height: 20)
        let data = try WebPFixtureEncoder(lossless: true, exifOrientation: orientation).encode(source)
        let image = try WebPDecoder().decode(data)
        #expect(image.orientation == orientation)
        #expect(image.bitmap.packedBytes == source.packedBytes, "pixels as stored")
        let upright = try WebPDecoder().decode(data, options: DecodeOptions(appliesOrientation: true))
        #expect(upright.orientation == .up)
        let turned = orientation == .down ? PixelSize(width: 40, height: 20) : PixelSize(width: 20, height: 40)
        #expect(upright.size == turned)
    }

    @Test("an image over maxPixelCount is refused from its header")
    func tooLarge() throws {
        let data = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.solid((1, 2, 3, 255), width: 100, height: 100))
        let error = #expect(throws: ImageDecodingError.self) {
            try WebPDecoder().decode(data, options: DecodeOptions(maxPixelCount: 9_999))
        }
        #expect(error?.code == .tooLarge)
        #expect(WebPDecoder().estimatedMemory(decoding: data, options: .default) == 100 * 100 * 4)
        #expect(WebPDecoder().estimatedMemory(decoding: data, options: DecodeOptions(maxPixelSize: 50)) == 50 * 50 * 4)
    }

    @Test("every prefix of a file is a typed error, never a wrong image")
    func everyPrefix() throws {
        let data = try WebPFixtureEncoder(quality: 70).encode(try WebPTestImages.photo(width: 64, height: 48))
        for length in 0..<data.count {
            let error = #expect(throws: ImageDecodingError.self, "\(length) of \(data.count) bytes") {
                try WebPDecoder().decode(data.prefix(length))
            }
            let expected: Set<ImageDecodingError.Code> = length == 0 ? [.empty] : [.truncated, .invalidHeader]
            #expect(error.map { expected.contains($0.code) } == true, "\(length) bytes: \(String(describing: error))")
        }
    }

    @Test("damaged image data is a typed error")
    func damaged() throws {
        var data = try WebPFixtureEncoder(quality: 70).encode(try WebPTestImages.photo(width: 64, height: 48))
        // Past the RIFF, chunk and frame headers: the compressed partitions.
        for index in stride(from: 40, to: data.count, by: 3) { data[index] ^= 0x5A }
        switch Result(catching: { () throws(ImageDecodingError) in try WebPDecoder().decode(data) }) {
        case .success(let image):
            // A lossy stream may decode damaged data to other pixels; it must still be
            // the size the header says.
            #expect(image.size == PixelSize(width: 64, height: 48))
        case .failure(let error):
            #expect([.corrupt, .truncated, .invalidHeader].contains(error.code))
        }
    }

    @Test("the registry picks the WebP decoder by the file's first bytes, and the Accept header names it")
    func registry() throws {
        var registry = ImageDecoderRegistry.standard
        let data = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.solid((9, 8, 7, 255)))
        let refused = #expect(throws: ImageDecodingError.self) { try registry.decode(data) }
        #expect(refused?.code == .unsupported)
        #expect(!registry.acceptHeader.contains("image/webp"))
        registry.register(WebPDecoder())
        #expect(try registry.decode(data).format == .webp)
        #expect(registry.acceptHeader == "image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5")
    }
}
