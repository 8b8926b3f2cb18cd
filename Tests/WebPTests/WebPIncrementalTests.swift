import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport
import WebImageWebP

/// Feeding WebP bytes as they arrive.
@Suite("WebPDecoder: incremental decoding")
struct WebPIncrementalTests {
    @Test("a still shows rows as they arrive, then the same image as a whole-file decode", arguments: [false, true])
    func still(lossless: Bool) throws {
        let data = try WebPFixtureEncoder(quality: 80, lossless: lossless).encode(try WebPTestImages.photo(width: 256, height: 192))
        let expected = try WebPDecoder().decode(data)
        let decoder = WebPDecoder().makeIncrementalDecoder(options: .default)
        #expect(decoder.info == nil)
        #expect(try decoder.partialImage() == nil)
        var lastRevision = 0
        var partials = 0
        var offset = 0
        for slice in data.randomSlices(maxSlice: max(1, data.count / 16), seed: UInt64(data.count)) {
            try decoder.append(slice)
            offset += slice.count
            #expect(decoder.revision >= lastRevision)
            if decoder.revision > lastRevision, offset < data.count {
                lastRevision = decoder.revision
                let partial = try #require(try decoder.partialImage())
                #expect(partial.isPartial)
                #expect(partial.size == expected.size)
                partials += 1
            }
        }
        #expect(decoder.info?.size == expected.size)
        #expect(partials > 0, "rows showed before the end")
        let final = try decoder.finish()
        #expect(!final.isPartial)
        #expect(final.bitmap.packedBytes == expected.bitmap.packedBytes)
        let again = #expect(throws: ImageDecodingError.self) { try decoder.append(Data([0])) }
        #expect(again?.code == .invalidState)
    }

    @Test("scaled and oriented as the options ask, like the whole-file decode")
    func options() throws {
        let data = try WebPFixtureEncoder(lossless: true, exifOrientation: .right).encode(try WebPTestImages.photo(width: 200, height: 100))
        let options = DecodeOptions(maxPixelSize: 50, appliesOrientation: true)
        let expected = try WebPDecoder().decode(data, options: options)
        let decoder = WebPDecoder().makeIncrementalDecoder(options: options)
        for slice in data.randomSlices(maxSlice: 512, seed: 7) { try decoder.append(slice) }
        let final = try decoder.finish()
        #expect(final.size == PixelSize(width: 25, height: 50))
        #expect(final.bitmap.packedBytes == expected.bitmap.packedBytes)
    }

    @Test("a file that ends early finishes as truncated")
    func truncated() throws {
        let data = try WebPFixtureEncoder(quality: 80).encode(try WebPTestImages.photo(width: 128, height: 96))
        let decoder = WebPDecoder().makeIncrementalDecoder(options: .default)
        try decoder.append(data.prefix(data.count * 2 / 3))
        let error = #expect(throws: ImageDecodingError.self) { try decoder.finish() }
        #expect(error?.code == .truncated)
        let after = #expect(throws: ImageDecodingError.self) { try decoder.partialImage() }
        #expect(after?.code == .invalidState)
    }

    @Test("an animation has no partial image and is decoded whole at the end")
    func animation() throws {
        let data = try WebPAnimationTests.animation()
        let decoder = WebPDecoder().makeIncrementalDecoder(options: .default)
        for slice in data.randomSlices(maxSlice: 64, seed: 3) {
            try decoder.append(slice)
            #expect(try decoder.partialImage() == nil)
        }
        let final = try decoder.finish()
        #expect(final.frames.count == 3)
        #expect(sameFrames(final.frames, try WebPDecoder().decode(data).frames))
    }

    @Test("the registry's sniffing decoder hands WebP bytes to this one")
    func sniffing() throws {
        var registry = ImageDecoderRegistry.standard
        registry.register(WebPDecoder())
        let data = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.translucent())
        let decoder = registry.makeIncrementalDecoder()
        for slice in data.randomSlices(maxSlice: 100, seed: 11) { try decoder.append(slice) }
        #expect(decoder.format == .webp)
        #expect(try decoder.finish().bitmap.packedBytes == (try WebPTestImages.translucent()).packedBytes)
    }
}
