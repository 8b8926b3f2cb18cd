import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageTestSupport
import WebImageWebP

/// Our decodes against libwebp's own calls on the same bytes: the pixels must be the
/// same, frame by frame for animations.
@Suite("WebPDecoder: the same pixels as libwebp")
struct WebPReferenceTests {
    @Test("lossy, lossy with alpha and lossless stills decode to exactly WebPDecodeRGBA's pixels")
    func stills() throws {
        let files = [
            try WebPFixtureEncoder(quality: 70).encode(try WebPTestImages.photo(width: 75, height: 51)),
            try WebPFixtureEncoder(quality: 70).encode(try WebPTestImages.translucent()),
            try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.translucent()),
        ]
        for data in files {
            let ours = try WebPDecoder().decode(data)
            #expect(ours.bitmap.packedBytes == LibWebPReference.still(data))
        }
    }

    @Test("an animation decodes frame by frame to exactly WebPAnimDecoder's canvases")
    func animation() throws {
        let frames = [
            try WebPTestImages.photo(width: 40, height: 30), try WebPTestImages.translucent(width: 40, height: 30),
            try WebPTestImages.solid((10, 200, 30, 128), width: 40, height: 30),
        ]
        let data = try WebPFixtureEncoder(quality: 60).encodeAnimation(frames, durations: [50, 60, 70])
        let ours = try WebPDecoder().decode(data)
        let reference = LibWebPReference.frames(data)
        #expect(reference.count == 3)
        #expect(ours.frames.map(\.bitmap.packedBytes) == reference)
    }

    @Test("a file whose header claims 16,000 x 16,000 is refused from it")
    func bomb() throws {
        let small = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.photo(width: 48, height: 32))
        let bomb = try #require(DecompressionBombs.webp(small, width: 16_000, height: 16_000))
        let error = #expect(throws: ImageDecodingError.self) { try WebPDecoder().decode(bomb) }
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
    }
}
