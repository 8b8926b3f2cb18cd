import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageWebP

/// `readHeader`: a WebP's canvas and frames, with nothing decoded.
@Suite("WebPDecoder: headers read without decoding")
struct WebPHeaderReadingTests {
    @Test("a still: its size and one frame; an animation: its canvas and every frame")
    func header() throws {
        let still = try WebPFixtureEncoder().encode(WebPTestImages.photo(width: 90, height: 60))
        let stillHeader = try WebPDecoder().readHeader(still)
        #expect(stillHeader.info == ImageInfo(format: .webp, size: PixelSize(width: 90, height: 60)))
        #expect(stillHeader.frameCount == 1)
        let animation = try WebPDecoder().readHeader(WebPAnimationTests.animation())
        #expect(animation.info.size == PixelSize(width: 48, height: 32))
        #expect(animation.frameCount == 3)
    }

    @Test("the EXIF chunk's TIFF bytes come with the header; without one, none")
    func exif() throws {
        let photo = try WebPTestImages.photo(width: 30, height: 20)
        let tagged = try WebPFixtureEncoder(lossless: true, exifOrientation: .right).encode(photo)
        #expect(try WebPDecoder().readHeader(tagged).exif == Data(ExifOrientationBlock.bytes(6, littleEndian: true)))
        #expect(try WebPDecoder().readHeader(WebPFixtureEncoder().encode(photo)).exif == nil)
    }

    @Test("bytes that are not a WebP are an error, not a header")
    func refusal() {
        #expect(throws: ImageDecodingError.self) { try WebPDecoder().readHeader(Data("RIFF....WEBPnope".utf8)) }
    }
}
