import CLibAVIF
import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageTestSupport

@testable import WebImageAVIF

/// Our decodes against libavif's own calls on the same bytes: the pixels must be the
/// same, frame by frame.
@Suite("AVIFDecoder: the same pixels as libavif")
struct AVIFReferenceTests {
    @Test("a lossy still, opaque and with alpha, decodes to exactly libavif's RGBA")
    func stills() throws {
        for source in [try AVIFTestImages.photo(width: 75, height: 51), try AVIFTestImages.translucent()] {
            let data = try AVIFEncoder(quality: 55).encode(source)
            let ours = try AVIFDecoder().decode(data)
            let reference = try LibAVIFReference.frames(data)
            #expect(reference.count == 1)
            #expect(ours.bitmap.packedBytes == reference.first)
        }
    }

    @Test("a 10- or 12-bit 4:2:0 still decodes to exactly libavif's full-precision RGBA (best upsampling, no libyuv)", arguments: [10, 12])
    func highDepth(depth: Int) throws {
        var encoder = AVIFEncoder(quality: 70)
        encoder.depth = depth
        let data = try encoder.encode(try AVIFTestImages.photo(width: 75, height: 51))
        let ours = try AVIFDecoder().decode(data)
        #expect(ours.bitmap.packedBytes == (try LibAVIFReference.frames(data, precise: true)).first)
        #expect(ours.bitmap.packedBytes != (try LibAVIFReference.frames(data, precise: false)).first, "libyuv's shortcut differs")
    }

    @Test("a sequence decodes frame by frame to exactly libavif's RGBA")
    func sequence() throws {
        let data = try AVIFSequenceTests.sequence()
        let ours = try AVIFDecoder().decode(data)
        let reference = try LibAVIFReference.frames(data)
        #expect(reference.count == 3)
        #expect(ours.frames.map(\.bitmap.packedBytes) == reference)
    }

    @Test("a file whose ispe claims 60,000 x 60,000 is refused from its container, before any decode")
    func bomb() throws {
        let small = try AVIFEncoder(quality: 40, speed: 10).encode(try AVIFTestImages.quadrants())
        let bomb = try #require(DecompressionBombs.avif(small, width: 60_000, height: 60_000))
        let error = #expect(throws: ImageDecodingError.self) { try AVIFDecoder().decode(bomb) }
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        let within = try #require(DecompressionBombs.avif(small, width: 9_000, height: 9_000))
        let refused = #expect(throws: ImageDecodingError.self) { try AVIFDecoder().decode(within) }
        #expect(refused?.code == .tooLarge, "81 MP is over the default 64 MP: \(String(describing: refused))")
        let incremental = AVIFDecoder().makeIncrementalDecoder(options: .default)
        let early = #expect(throws: ImageDecodingError.self) { try incremental.append(bomb) }
        #expect(early?.code == .tooLarge)
    }
}

/// libavif's one-call decode and conversion, the reference the tests compare with.
enum LibAVIFReference {
    struct Failure: Error { let result: UInt32 }

    /// Every frame as packed 8-bit RGBA, as `avifDecoderNextImage` and
    /// `avifImageYUVToRGB` give them.
    static func frames(_ data: Data, precise: Bool = false) throws -> [[UInt8]] {
        guard let decoder = avifDecoderCreate() else { throw Failure(result: 0) }
        defer { avifDecoderDestroy(decoder) }
        return try data.withUnsafeBytes { bytes in
            var result = avifDecoderSetIOMemory(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            guard result == AVIF_RESULT_OK else { throw Failure(result: result.rawValue) }
            result = avifDecoderParse(decoder)
            guard result == AVIF_RESULT_OK else { throw Failure(result: result.rawValue) }
            var frames: [[UInt8]] = []
            while avifDecoderNextImage(decoder) == AVIF_RESULT_OK {
                let image = decoder.pointee.image!
                var rgb = avifRGBImage()
                avifRGBImageSetDefaults(&rgb, image)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                if precise {
                    rgb.chromaUpsampling = AVIF_CHROMA_UPSAMPLING_BEST_QUALITY
                    rgb.avoidLibYUV = 1
                }
                rgb.rowBytes = image.pointee.width * 4
                var pixels = [UInt8](repeating: 0, count: Int(rgb.rowBytes * image.pointee.height))
                let converted = pixels.withUnsafeMutableBufferPointer { buffer in
                    rgb.pixels = buffer.baseAddress
                    return avifImageYUVToRGB(image, &rgb)
                }
                guard converted == AVIF_RESULT_OK else { throw Failure(result: converted.rawValue) }
                frames.append(pixels)
            }
            return frames
        }
    }
}
