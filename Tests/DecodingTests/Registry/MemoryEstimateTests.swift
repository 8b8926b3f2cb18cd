import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// What a decode will hold, told from the headers before it starts: what the memory
/// budget reserves. Checked against the images' own sizes, and against what the decode
/// really returns.
@Suite("Memory estimates from the headers")
struct MemoryEstimateTests {
    let registry = ImageDecoderRegistry.standard

    @Test("a PNG: its full-size RGBA pixels, plus the downsampled copy when one is asked for")
    func png() throws {
        let data = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 300, height: 200))
        #expect(registry.estimatedMemory(decoding: data, options: .default) == 300 * 200 * 4)
        var small = DecodeOptions.default
        small.maxPixelSize = 150
        #expect(registry.estimatedMemory(decoding: data, options: small) == 300 * 200 * 4 + 150 * 100 * 4)
    }

    @Test("a JPEG: the DCT-scaled decode and the exact resize, never the full size when scaled")
    func jpeg() throws {
        let data = try JPEGFixtureEncoder().encode(SyntheticImage.photo(width: 1600, height: 1200))
        #expect(registry.estimatedMemory(decoding: data, options: .default) == 1600 * 1200 * 4)
        var thumbnail = DecodeOptions.default
        thumbnail.maxPixelSize = 256
        // libjpeg decodes at 2/8 (400x300), then resamples to 256x192.
        #expect(registry.estimatedMemory(decoding: data, options: thumbnail) == 400 * 300 * 4 + 256 * 192 * 4)
        let progressive = try JPEGFixtureEncoder(progressive: true).encode(SyntheticImage.photo(width: 160, height: 120))
        #expect(registry.estimatedMemory(decoding: progressive, options: .default) == 160 * 120 * 4 + 160 * 120 * 6)
    }

    @Test("an animated GIF with no frame restored: the canvas and every frame, counted without decoding")
    func gif() throws {
        let data = try GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 64, height: 48, frameCount: 30))
        let estimate = try #require(registry.estimatedMemory(decoding: data, options: .default))
        #expect(estimate == 64 * 48 * 4 + 30 * 64 * 48 * 4)
        let decoded = try registry.decode(data)
        #expect(decoded.frames.count == 30)
        let held = decoded.frames.reduce(0) { $0 + $1.bitmap.packedRowBytes * $1.bitmap.height }
        #expect(estimate >= held, "the estimate covers what the decode returns")
        var first = DecodeOptions.default
        first.firstFrameOnly = true
        #expect(registry.estimatedMemory(decoding: data, options: first) == 64 * 48 * 4 * 2)
    }

    @Test("a file over the pixel limits estimates 0 (its decode fails before allocating); bytes no decoder reads, nil")
    func limitsAndUnknowns() throws {
        let data = try PNGFixtureEncoder().encode(SyntheticImage.photo(width: 300, height: 200))
        var tight = DecodeOptions.default
        tight.maxPixelCount = 1000
        #expect(registry.estimatedMemory(decoding: data, options: tight) == 0)
        #expect(throws: ImageDecodingError.self) { try registry.decode(data, options: tight) }
        #expect(registry.estimatedMemory(decoding: Data("not an image".utf8), options: .default) == nil)
        #expect(registry.estimatedMemory(decoding: data.prefix(12), options: .default) == nil, "no IHDR yet")
    }
}
