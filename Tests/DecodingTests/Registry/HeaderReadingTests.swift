import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// What the headers say before anything is decoded: size, orientation, frames. What a
/// server checks its limits against and sizes its decode by.
@Suite("Headers read without decoding")
struct HeaderReadingTests {
    let registry = ImageDecoderRegistry.standard

    @Test("a JPEG: its frame size, progressive or not, and the EXIF orientation turning it")
    func jpeg() throws {
        let plain = try registry.header(of: JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 320, height: 200)))
        #expect(plain.info == ImageInfo(format: .jpeg, size: PixelSize(width: 320, height: 200)))
        #expect(plain.frameCount == 1)
        let turned = try registry.header(
            of: JPEGFixtureEncoder(progressive: true, exifOrientation: .right).encode(SyntheticImage.photo(width: 320, height: 200)))
        #expect(turned.info.orientation == .right)
        #expect(turned.info.isProgressive)
        #expect(turned.displaySize == PixelSize(width: 200, height: 320))
    }

    @Test("a PNG: IHDR's size and interlacing")
    func png() throws {
        let bitmap = try SyntheticImage.photo(width: 33, height: 17)
        #expect(try registry.header(of: PNGFixtureEncoder().encode(bitmap)).info.size == PixelSize(width: 33, height: 17))
        #expect(try registry.header(of: PNGFixtureEncoder(interlaced: true).encode(bitmap)).info.isProgressive)
    }

    @Test("an animated GIF: the screen and every frame, counted without decoding one")
    func gif() throws {
        let data = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 64, height: 48, frameCount: 30))
        let header = try registry.header(of: data)
        #expect(header.info.size == PixelSize(width: 64, height: 48))
        #expect(header.frameCount == 30)
        #expect(header.totalPixelCount == 64 * 48 * 30)
    }

    @Test("a header claiming a huge size is read as it claims: the limits are the caller's")
    func bomb() throws {
        var bytes = [UInt8](try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 8, height: 8)))
        for offset in [16, 20] { bytes[offset..<offset + 4] = [0x00, 0x01, 0x86, 0xA0] }  // 100,000
        let header = try registry.header(of: Data(bytes))
        #expect(header.info.size == PixelSize(width: 100_000, height: 100_000))
        #expect(header.totalPixelCount == 10_000_000_000)
    }

    @Test("bytes that are not an image, or cut inside the header, are typed errors")
    func refusals() throws {
        #expect { try registry.header(of: Data("<html>".utf8)) } throws: { ($0 as? ImageDecodingError)?.code == .unknownFormat }
        #expect { try registry.header(of: Data()) } throws: { ($0 as? ImageDecodingError)?.code == .empty }
        let png = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 8, height: 8))
        #expect { try registry.header(of: png.prefix(20)) } throws: { ($0 as? ImageDecodingError)?.code == .truncated }
        let jpeg = try JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 8, height: 8))
        #expect(throws: ImageDecodingError.self) { try registry.header(of: jpeg.prefix(10)) }
    }
}
