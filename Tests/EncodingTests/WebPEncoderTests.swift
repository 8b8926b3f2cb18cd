import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures
import WebImageWebP

/// WebP written by libwebp's encoder and read back by WebPDecoder.
@Suite("WebPEncoder")
struct WebPEncoderTests {
    @Test("lossless keeps every pixel, the colour under transparent ones included")
    func lossless() throws {
        let image = try SyntheticImage.translucent(width: 77, height: 41)
        let webp = try WebPEncoder(lossless: true).encode(image)
        #expect(try WebPDecoder().decode(webp).bitmap.packedBytes == image.packedBytes)
    }

    @Test("lossy is close, and the real-time preset is a valid file too")
    func lossy() throws {
        let photo = try SyntheticImage.photo(width: 160, height: 120)
        for encoder in [WebPEncoder(quality: 90), WebPEncoder.realTime] {
            let decoded = try WebPDecoder().decode(try encoder.encode(photo))
            #expect(decoded.size == photo.size)
            let difference = zip(decoded.bitmap.packedBytes, photo.packedBytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(difference) / Double(photo.packedBytes.count) < 8)
        }
    }

    @Test("a gray bitmap is written as colour with equal channels")
    func gray() throws {
        let gray = try SyntheticImage.grayPhoto(width: 30, height: 20)
        let decoded = try WebPDecoder().decode(try WebPEncoder(lossless: true).encode(gray))
        let bytes = decoded.bitmap.packedBytes
        let pixels = stride(from: 0, to: bytes.count, by: 4).map { (red: bytes[$0], green: bytes[$0 + 1], blue: bytes[$0 + 2]) }
        let equalChannels = pixels.allSatisfy { (pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool in
            pixel.red == pixel.green && pixel.green == pixel.blue
        }
        #expect(equalChannels)
        let reds: [UInt8] = pixels.map(\.red)
        #expect(reds == gray.packedBytes)
    }

    @Test("an animation keeps its frames, their stored delays and the loop count")
    func animation() throws {
        let frames = try [SyntheticImage.photo(width: 40, height: 30), SyntheticImage.translucent(width: 40, height: 30)].map {
            ImageFrame(bitmap: $0, duration: .milliseconds(100), storedDelay: .milliseconds(40))
        }
        let source = DecodedImage(
            format: .gif, frames: frames, loopCount: 5, orientation: .up, sourceSize: PixelSize(width: 40, height: 30))
        let decoded = try WebPDecoder().decode(try WebPEncoder(lossless: true).encodeAnimation(source))
        #expect(decoded.frames.count == 2)
        #expect(decoded.loopCount == 5)
        #expect(decoded.frames.map(\.storedDelay) == [.milliseconds(40), .milliseconds(40)])
        #expect(decoded.frames[0].bitmap.packedBytes == frames[0].bitmap.packedBytes)
    }

    @Test("a lossy animation's frames take the animation method, a still the method; quality stays within 0.5 dB")
    func animationMethod() throws {
        let photos = try (0..<3).map { try SyntheticImage.photo(width: 96, height: 64, seed: UInt64(7 + $0)) }
        let source = DecodedImage(
            format: .gif, frames: photos.map { ImageFrame(bitmap: $0, duration: .milliseconds(40), storedDelay: .milliseconds(40)) },
            loopCount: 0, orientation: .up, sourceSize: PixelSize(width: 96, height: 64))
        let byDefault = try WebPEncoder(quality: 75).encodeAnimation(source)
        #expect(WebPEncoder().animationMethod == 2)
        #expect(try WebPEncoder(quality: 75, method: 6, animationMethod: 2).encodeAnimation(source) == byDefault)
        let atFour = try WebPEncoder(quality: 75, animationMethod: 4).encodeAnimation(source)
        #expect(atFour != byDefault)
        #expect(try WebPEncoder(quality: 75, method: 0).encode(photos[0]) != WebPEncoder(quality: 75).encode(photos[0]))
        let fast = try WebPDecoder().decode(byDefault, options: DecodeOptions(frameBuffering: .allFrames))
        let slow = try WebPDecoder().decode(atFour, options: DecodeOptions(frameBuffering: .allFrames))
        try #require(fast.frames.count == 3 && slow.frames.count == 3)
        for index in 0..<3 {
            let truth = AnimatedEncodingTests.rgb(photos[index])
            let fastPSNR = PixelComparison.psnr(AnimatedEncodingTests.rgb(fast.frames[index].bitmap), truth)
            let slowPSNR = PixelComparison.psnr(AnimatedEncodingTests.rgb(slow.frames[index].bitmap), truth)
            #expect(fastPSNR > slowPSNR - 0.5, "frame \(index): \(fastPSNR) dB at method 2, \(slowPSNR) dB at 4")
        }
    }

    @Test("sizes WebP cannot hold, and frames of another size, are encoding errors")
    func errors() throws {
        let wide = try ImageBitmap(width: 16_384, height: 1, pixelFormat: .gray8) { _, _ in }
        let tooWide = #expect(throws: ImageDecodingError.self) { try WebPEncoder().encode(wide) }
        #expect(tooWide?.code == .encodingFailed)
        let mixed = try EncodingTestImages.mixedSizeAnimation()
        let sizes = #expect(throws: ImageDecodingError.self) { try WebPEncoder().encodeAnimation(mixed) }
        #expect(sizes?.code == .encodingFailed)
    }
}
