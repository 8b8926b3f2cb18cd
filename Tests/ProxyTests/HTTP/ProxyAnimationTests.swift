import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageProxy

/// Animated sources through the proxy over loopback HTTP, as imgproxy treats them:
/// `max_animation_frames` (1 by default) says how many frames an output is made of.
@Suite("Image proxy animations")
struct ProxyAnimationTests {
    static let frameCount = 20

    /// A 96x72 GIF of `frameCount` frames (a pan across a photo), 70 ms each, played 3 times.
    static func animatedGIF(frameCount: Int = frameCount) throws -> Data {
        try GIFFixtureEncoder().encode(
            SyntheticAnimation.make(width: 96, height: 72, frameCount: frameCount, delayCentiseconds: 7, loopCount: 3))
    }

    /// A configuration whose outputs may keep up to `frames` frames.
    static func allowing(_ frames: Int) -> ImageProxy.Configuration {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.limits.maxAnimationFrames = frames
        return configuration
    }

    /// The source's frames scaled to 48x36, what each output frame should look like.
    static func expectedFrames() throws -> [ImageBitmap] {
        let source = try GIFDecoder().decode(try animatedGIF(), options: .default)
        let resize = ResizeTransformer(width: 48, height: 36, mode: .stretch)
        return try (0..<frameCount).map { try resize.transform(DecodedImage(format: .gif, frames: [source.frame(at: $0)])).bitmap }
    }

    static func rgb(_ bitmap: ImageBitmap) -> [UInt8] {
        let bytes = bitmap.packedBytes
        return stride(from: 0, to: bytes.count, by: 4).flatMap { bytes[$0..<$0 + 3] }
    }

    @Test("by default only the first frame is processed: an animated GIF asked as WebP is a still")
    func firstFrameByDefault() async throws {
        try await ProxyHarness.run(files: ["pan.gif": try Self.animatedGIF()]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/webp")
            let image = try WebPDecoder().decode(answer.data, options: .default)
            #expect(image.frameCount == 1)
            #expect(image.size == PixelSize(width: 48, height: 36))
            let expected = try Self.expectedFrames()
            let psnr = PixelComparison.psnr(Self.rgb(image.bitmap), Self.rgb(expected[0]))
            #expect(psnr > 22, "\(psnr) dB")
            #expect(psnr > PixelComparison.psnr(Self.rgb(image.bitmap), Self.rgb(expected[10])))
        }
    }

    @Test("allowed by max_animation_frames, an animated GIF asked as WebP keeps every frame, resized, its delays and loop count")
    func animatedWebP() async throws {
        try await ProxyHarness.run(configuration: Self.allowing(100), files: ["pan.gif": try Self.animatedGIF()]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/webp")
            let image = try WebPDecoder().decode(answer.data, options: .default)
            #expect(image.frameCount == Self.frameCount)
            #expect(image.loopCount == 3)
            #expect(image.size == PixelSize(width: 48, height: 36))
            let expected = try Self.expectedFrames()
            for index in 0..<Self.frameCount {
                let frame = try image.frame(at: index)
                #expect(frame.storedDelay == .milliseconds(70))
                // Each frame is its own source frame, in order, not another one.
                let psnr = PixelComparison.psnr(Self.rgb(frame.bitmap), Self.rgb(expected[index]))
                let other = PixelComparison.psnr(Self.rgb(frame.bitmap), Self.rgb(expected[(index + 10) % Self.frameCount]))
                #expect(psnr > 22 && psnr > other, "frame \(index): \(psnr) dB, \(other) dB against frame \(index + 10)")
            }
        }
    }

    @Test("maf lowers the server's allowance: the first n frames, and 1 a still; a GIF source named no format stays GIF")
    func urlLimitAndGIF() async throws {
        try await ProxyHarness.run(configuration: Self.allowing(100), files: ["pan.gif": try Self.animatedGIF()]) { harness in
            let five = try await harness.get(harness.path("maf:5/rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(try WebPDecoder().decode(five.data, options: .default).frameCount == 5)
            let one = try await harness.get(harness.path("maf:1/rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(try WebPDecoder().decode(one.data, options: .default).frameCount == 1)
            let gif = try await harness.get(harness.path("rs:fit:48:48", origin: "/files/pan.gif"))
            #expect(gif.header("Content-Type") == "image/gif")
            let image = try GIFDecoder().decode(gif.data, options: .default)
            #expect(image.frameCount == Self.frameCount)
            #expect(image.loopCount == 3)
            #expect(image.frames.allSatisfy { $0.storedDelay == .milliseconds(70) })
            // A still format takes the first frame whatever is allowed.
            let png = try await harness.get(harness.path("rs:fit:48:48/f:png", origin: "/files/pan.gif"))
            #expect(try PNGDecoder().decode(png.data, options: .default).frameCount == 1)
        }
    }

    @Test("padding and a background reach every frame of an animated output")
    func canvasOnEveryFrame() async throws {
        try await ProxyHarness.run(configuration: Self.allowing(100), files: ["pan.gif": try Self.animatedGIF()]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:48:48/pd:4/bg:255:0:0/f:webp", origin: "/files/pan.gif"))
            #expect(answer.status == 200)
            let image = try WebPDecoder().decode(answer.data, options: .default)
            #expect(image.frameCount == Self.frameCount)
            #expect(image.size == PixelSize(width: 56, height: 44))
            for index in [0, Self.frameCount - 1] {
                let corner = Array(try image.frame(at: index).bitmap.packedBytes.prefix(4))
                #expect(corner[0] > 230 && corner[1] < 25 && corner[2] < 25 && corner[3] == 255, "frame \(index): \(corner)")
            }
        }
    }

    @Test("frames processed count toward the source resolution, frames dropped do not, from a GIF or an animated WebP")
    func resolutionOfFramesProcessed() async throws {
        // Room for 10 frames of 96x72.
        var configuration = Self.allowing(100)
        configuration.limits.maxResolution = 96 * 72 * 10
        let frames = try (0..<Self.frameCount).map { try SyntheticImage.photo(width: 96, height: 72, seed: UInt64($0 + 1)) }
        let webp = try WebPFixtureEncoder(quality: 80).encodeAnimation(frames, durations: Array(repeating: 70, count: Self.frameCount))
        try await ProxyHarness.run(configuration: configuration, files: ["pan.gif": try Self.animatedGIF(), "pan.webp": webp]) { harness in
            let all = try await harness.get(harness.path("rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(all.status == 422)
            #expect(String(decoding: all.data, as: UTF8.self).contains("x 20 frames"))
            let ten = try await harness.get(harness.path("maf:10/rs:fit:48:48/f:webp", origin: "/files/pan.gif"))
            #expect(ten.status == 200)
            #expect(try WebPDecoder().decode(ten.data, options: .default).frameCount == 10)
            let webpAll = try await harness.get(harness.path("rs:fit:48:48/f:webp", origin: "/files/pan.webp"))
            #expect(webpAll.status == 422)
            let webpTen = try await harness.get(harness.path("maf:10/rs:fit:48:48/f:webp", origin: "/files/pan.webp"))
            #expect(webpTen.status == 200)
            #expect(try WebPDecoder().decode(webpTen.data, options: .default).frameCount == 10)
            let webpStill = try await harness.get(harness.path("rs:fit:48:48/f:webp/maf:1", origin: "/files/pan.webp"))
            #expect(webpStill.status == 200)
        }
    }

    @Test("a source with more frames than any source may have is refused with 422, whatever is asked of it")
    func hostileFrameCount() async throws {
        var configuration = Self.allowing(100)
        configuration.limits.maxFrames = 12
        let tiny = GIFFixtureFrame(indices: [0], width: 1, height: 1, delayCentiseconds: 0)
        let many = try GIFFixtureEncoder().encode(
            GIFFixtureAnimation(
                width: 1, height: 1, globalPalette: [0, 0, 0, 255, 255, 255], loopCount: 0, frames: Array(repeating: tiny, count: 5_000)))
        try await ProxyHarness.run(configuration: configuration, files: ["many.gif": many, "pan.gif": try Self.animatedGIF()]) {
            harness in
            for path in ["many.gif", "pan.gif"] {
                for options in ["rs:fit:48:48/f:webp", "maf:1/rs:fit:48:48/f:png"] {
                    let answer = try await harness.get(harness.path(options, origin: "/files/\(path)"))
                    #expect(answer.status == 422, "\(path) \(options)")
                    #expect(String(decoding: answer.data, as: UTF8.self).contains("the limit is 12"))
                }
            }
        }
    }
}
