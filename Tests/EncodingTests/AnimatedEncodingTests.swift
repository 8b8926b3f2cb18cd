import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures
import WebImageWebP

/// Animations written frame by frame (WebP on WebPAnimEncoder, GIF on giflib) and read
/// back by the library's own decoders; and the first frame as a still.
@Suite("Animated encoding")
struct AnimatedEncodingTests {
    static func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        let bytes = bitmap.packedBytes
        return stride(from: 0, to: bytes.count, by: 4).flatMap { bytes[$0..<$0 + 3] }
    }

    /// A 12-frame GIF source, decoded on demand (its frames composed as asked for).
    static func gifSource(loopCount: Int = 3) throws -> DecodedImage {
        let data = try GIFFixtureEncoder().encode(
            SyntheticAnimation.make(width: 96, height: 72, frameCount: 12, delayCentiseconds: 7, loopCount: loopCount))
        return try GIFDecoder().decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0)))
    }

    @Test("an animated WebP from a GIF keeps the frame count, delays and loop count, each frame as close as a still WebP")
    func webpFromGIF() throws {
        let source = try Self.gifSource()
        #expect(source.frameSource != nil)
        let decoded = try WebPDecoder().decode(try WebPEncoder(quality: 90).encode(source), options: .default)
        #expect(decoded.frameCount == 12)
        #expect(decoded.loopCount == 3)
        #expect(
            (0..<12).map { decoded.frameSource?.storedDelay(ofFrame: $0) ?? decoded.frames[$0].storedDelay }
                == Array(
                    repeating: .milliseconds(70), count: 12))
        // The source is a noisy 256-colour scene: lossy 4:2:0 at quality 90 is about 26 dB
        // on it, still or animated; each frame is held to its still encode's PSNR.
        for index in 0..<12 {
            let truth = try source.frame(at: index).bitmap
            let still = try WebPDecoder().decode(try WebPEncoder(quality: 90).encode(truth)).bitmap
            let stillPSNR = PixelComparison.psnr(Self.rgb(still), Self.rgb(truth))
            let psnr = PixelComparison.psnr(Self.rgb(try decoded.frame(at: index).bitmap), Self.rgb(truth))
            #expect(psnr > 24 && psnr > stillPSNR - 1, "frame \(index): \(psnr) dB, \(stillPSNR) dB as a still")
        }
    }

    @Test("a lossless animated WebP gives back every pixel of every frame")
    func losslessWebP() throws {
        let source = try Self.gifSource(loopCount: 0)
        let decoded = try WebPDecoder().decode(try WebPEncoder(lossless: true).encode(source), options: .default)
        #expect(decoded.frameCount == 12)
        #expect(decoded.loopCount == 0)
        for index in 0..<12 {
            #expect(try decoded.frame(at: index).bitmap.packedBytes == source.frame(at: index).bitmap.packedBytes)
        }
    }

    @Test(
        "an animation composed on demand is written holding at most one earlier frame",
        arguments: [AnyAnimatedEncoder.webp, .gif])
    func boundedFrames(encoder: AnyAnimatedEncoder) throws {
        let source = CountingFrameSource(frameCount: 60, size: PixelSize(width: 64, height: 48))
        let data = try encoder.encoder.encode(try source.image())
        #expect(source.framesMade == 60)
        #expect(source.mostFramesAlive <= 1, "\(source.mostFramesAlive) earlier frames were alive at once")
        let decoded = try encoder.decoder.decode(data, options: .default)
        #expect(decoded.frameCount == 60)
    }

    @Test("the first frame only: a still from an animated source, in an animated format or a still one")
    func firstFrameOnly() throws {
        let source = try Self.gifSource()
        let firstFrame = try source.frame(at: 0).bitmap
        let webp = try WebPDecoder().decode(try WebPEncoder(lossless: true).encode(source, frames: .firstOnly))
        #expect(webp.frameCount == 1)
        #expect(webp.bitmap.packedBytes == firstFrame.packedBytes)
        let gif = try GIFDecoder().decode(try GIFEncoder().encode(source, frames: .firstOnly))
        #expect(gif.frameCount == 1)
        #expect(gif.bitmap.packedBytes == firstFrame.packedBytes)
        // Still-only formats take the first frame whatever is asked.
        let png = try PNGEncoder().encode(source)
        #expect(try PNGDecoder().decode(png).bitmap.packedBytes == firstFrame.packedBytes)
        #expect(try JPEGEncoder(quality: 95).encode(source) == JPEGEncoder(quality: 95).encode(firstFrame))
        #expect(try WebPEncoder().encode(source, frames: .firstOnly) == WebPEncoder().encode(firstFrame))
    }

    @Test("keeping the first frames of an animation on demand composes only those")
    func keepingFirstFrames() throws {
        let source = try Self.gifSource()
        let cut = source.keepingFirstFrames(5)
        #expect(cut.frameCount == 5)
        #expect(cut.frameSource != nil)
        let decoded = try GIFDecoder().decode(try GIFEncoder().encode(cut))
        #expect(decoded.frameCount == 5)
        #expect(decoded.frames[4].bitmap.packedBytes == (try source.frame(at: 4).bitmap.packedBytes))
        let still = source.keepingFirstFrames(1)
        #expect(still.frameCount == 1 && still.frameSource == nil)
        #expect(source.keepingFirstFrames(50).frameCount == 12)
        let counting = CountingFrameSource(frameCount: 40, size: PixelSize(width: 8, height: 8))
        _ = try GIFEncoder().encode(try counting.image().keepingFirstFrames(7))
        #expect(counting.framesMade == 7)
    }
}

/// The animated encoders, named for test arguments.
enum AnyAnimatedEncoder: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case webp
    case gif

    var encoder: any AnimatedImageEncoding {
        switch self {
        case .webp: WebPEncoder(quality: 60, method: 0, animationMethod: 0)
        case .gif: GIFEncoder()
        }
    }

    /// The library's decoder of the format written.
    var decoder: any ImageDecoding {
        switch self {
        case .webp: WebPDecoder()
        case .gif: GIFDecoder()
        }
    }

    var testDescription: String { rawValue }
}
