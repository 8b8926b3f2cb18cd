import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

/// GIF written by GIFEncoder (giflib) and read back by GIFDecoder.
@Suite("GIFEncoder")
struct GIFEncoderTests {
    /// RGB samples of `bitmap` (RGBA), alpha dropped.
    static func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        let bytes = bitmap.packedBytes
        return stride(from: 0, to: bytes.count, by: 4).flatMap { bytes[$0..<$0 + 3] }
    }

    @Test("a frame of 256 colours or fewer, one to a 5-bit box, comes back exactly")
    func fewColoursExact() throws {
        // 240 colours spaced 8 or more apart on every channel that differs.
        let bitmap = try ImageBitmap(width: 48, height: 20, pixelFormat: .rgba8) { bytes, bytesPerRow in
            for y in 0..<20 {
                for x in 0..<48 {
                    let colour = (y * 48 + x) % 240
                    let at = y * bytesPerRow + x * 4
                    bytes[at] = UInt8((colour % 16) * 16)
                    bytes[at + 1] = UInt8((colour / 16) * 16)
                    bytes[at + 2] = 200
                    bytes[at + 3] = 255
                }
            }
        }
        let decoded = try GIFDecoder().decode(try GIFEncoder().encode(bitmap))
        #expect(decoded.frameCount == 1)
        #expect(decoded.bitmap.packedBytes == bitmap.packedBytes)
    }

    @Test("a photo is reduced to one palette of its own within 30 dB")
    func photoPalette() throws {
        let photo = try SyntheticImage.photo(width: 160, height: 120)
        let decoded = try GIFDecoder().decode(try GIFEncoder().encode(photo))
        #expect(decoded.size == photo.size)
        let psnr = PixelComparison.psnr(Self.rgb(decoded.bitmap), Self.rgb(photo))
        #expect(psnr > 30, "PSNR \(psnr) dB")
    }

    @Test("alpha under 128 is written transparent, the rest opaque in its own colour")
    func transparency() throws {
        let image = try SyntheticImage.translucent(width: 64, height: 40)
        let decoded = try GIFDecoder().decode(try GIFEncoder().encode(image))
        let source = image.packedBytes
        let output = decoded.bitmap.packedBytes
        var opaqueSource: [UInt8] = []
        var opaqueOutput: [UInt8] = []
        for pixel in stride(from: 0, to: source.count, by: 4) {
            let transparent = source[pixel + 3] < 128
            #expect(output[pixel + 3] == (transparent ? 0 : 255))
            if !transparent {
                opaqueSource += source[pixel..<pixel + 3]
                opaqueOutput += output[pixel..<pixel + 3]
            }
        }
        #expect(!opaqueSource.isEmpty)
        #expect(PixelComparison.psnr(opaqueOutput, opaqueSource) > 30)
    }

    @Test("a transparent pixel of a frame shows no pixel of the frame before it")
    func framesClearedBetween() throws {
        let red = try SyntheticImage.solid(width: 8, height: 8, rgba: [255, 0, 0, 255])
        let clear = try SyntheticImage.solid(width: 8, height: 8, rgba: [0, 0, 255, 0])
        let image = DecodedImage(
            format: .png, frames: [red, clear].map { ImageFrame(bitmap: $0, duration: .milliseconds(100)) }, loopCount: 0)
        let decoded = try GIFDecoder().decode(try GIFEncoder().encodeAnimation(image))
        #expect(decoded.frameCount == 2)
        #expect(try decoded.frame(at: 1).bitmap.packedBytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 })
    }

    @Test("an animation keeps its frame count, its delays to the hundredth and its loop count")
    func animationTiming() throws {
        let frames = try (0..<3).map { index in
            ImageFrame(
                bitmap: try SyntheticImage.photo(width: 30, height: 20, seed: UInt64(index + 1)),
                duration: .milliseconds(100), storedDelay: [.milliseconds(40), .milliseconds(125), .milliseconds(4)][index])
        }
        for loopCount in [0, 1, 3] {
            let image = DecodedImage(format: .webp, frames: frames, loopCount: loopCount)
            let decoded = try GIFDecoder().decode(try GIFEncoder().encodeAnimation(image))
            #expect(decoded.frameCount == 3)
            #expect(decoded.loopCount == loopCount)
            #expect(decoded.frames.map(\.storedDelay) == [.milliseconds(40), .milliseconds(130), .zero])
        }
    }

    @Test("delays round to the nearest hundredth, half up, within GIF's 16 bits")
    func centiseconds() {
        #expect(GIFEncoder.centiseconds(of: .zero) == 0)
        #expect(GIFEncoder.centiseconds(of: .milliseconds(4)) == 0)
        #expect(GIFEncoder.centiseconds(of: .milliseconds(5)) == 1)
        #expect(GIFEncoder.centiseconds(of: .milliseconds(125)) == 13)
        #expect(GIFEncoder.centiseconds(of: .milliseconds(70)) == 7)
        #expect(GIFEncoder.centiseconds(of: .seconds(2000)) == 65_535)
        #expect(GIFEncoder.centiseconds(of: .milliseconds(-30)) == 0)
    }

    @Test("a GIF of 256 colours made into a GIF again keeps every pixel of every frame")
    func gifRoundTrip() throws {
        let source = try GIFFixtureEncoder().encode(
            SyntheticAnimation.make(width: 64, height: 48, frameCount: 6, delayCentiseconds: 7, loopCount: 2))
        // On demand, so the encoder walks a frame source.
        let options = DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0))
        let decoded = try GIFDecoder().decode(source, options: options)
        #expect(decoded.frameSource != nil)
        let again = try GIFDecoder().decode(try GIFEncoder().encode(decoded), options: .default)
        #expect(again.frameCount == 6)
        #expect(again.loopCount == 2)
        #expect(again.frames.map(\.storedDelay) == Array(repeating: .milliseconds(70), count: 6))
        for index in 0..<6 {
            #expect(again.frames[index].bitmap.packedBytes == (try decoded.frame(at: index).bitmap.packedBytes))
        }
    }

    @Test("sizes GIF cannot hold, and frames of another size, are encoding errors")
    func errors() throws {
        let wide = try ImageBitmap(width: 65_536, height: 1, pixelFormat: .gray8) { _, _ in }
        let tooWide = #expect(throws: ImageDecodingError.self) { try GIFEncoder().encode(wide) }
        #expect(tooWide?.code == .encodingFailed)
        let mixed = try EncodingTestImages.mixedSizeAnimation()
        let sizes = #expect(throws: ImageDecodingError.self) { try GIFEncoder().encodeAnimation(mixed) }
        #expect(sizes?.code == .encodingFailed)
    }

    @Test("a gray bitmap is written with equal channels")
    func gray() throws {
        let gray = try SyntheticImage.grayPhoto(width: 30, height: 20)
        let decoded = try GIFDecoder().decode(try GIFEncoder().encode(gray))
        let bytes: [UInt8] = decoded.bitmap.packedBytes
        var equal = true
        for pixel in stride(from: 0, to: bytes.count, by: 4) where bytes[pixel] != bytes[pixel + 1] || bytes[pixel + 1] != bytes[pixel + 2]
        {
            equal = false
        }
        #expect(equal)
    }
}
