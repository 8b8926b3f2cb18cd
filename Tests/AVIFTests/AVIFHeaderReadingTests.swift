import Foundation
import Testing
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

/// `readHeader`: an AVIF's size and frames from its boxes, with no AV1 data decoded.
@Suite("AVIFDecoder: headers read without decoding")
struct AVIFHeaderReadingTests {
    @Test("a still: its size and one frame; a sequence: every frame")
    func header() throws {
        let still = try AVIFEncoder(speed: 10).encode(AVIFTestImages.photo(width: 64, height: 40))
        let stillHeader = try AVIFDecoder().readHeader(still)
        #expect(stillHeader.info.format == .avif)
        #expect(stillHeader.info.size == PixelSize(width: 64, height: 40))
        #expect(stillHeader.frameCount == 1)
        let sequence = try AVIFDecoder().readHeader(AVIFSequenceTests.sequence())
        #expect(sequence.info.size == PixelSize(width: 24, height: 16))
        #expect(sequence.frameCount == 3)
    }

    @Test("a header past libavif's own dimension limit is refused as too large, still without decoding")
    func bomb() throws {
        let small = try AVIFEncoder(speed: 10).encode(AVIFTestImages.photo(width: 16, height: 16))
        let claimed = try #require(DecompressionBombs.avif(small, width: 60_000, height: 60_000))
        #expect { try AVIFDecoder().readHeader(claimed) } throws: { ($0 as? ImageDecodingError)?.code == .tooLarge }
    }
}
