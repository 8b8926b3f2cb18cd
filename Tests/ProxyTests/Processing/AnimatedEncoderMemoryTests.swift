import Foundation
import Testing
import WebImage
import WebImageFixtures

@testable import WebImageProxy

/// The proxy's memory estimate for a request counts the encoder of an animated output,
/// which grows with the frames processed, and the bound it counts covers what the
/// encoders hold of real animations.
@Suite("Image proxy: the memory of animated outputs")
struct AnimatedEncoderMemoryTests {
    static let frameCount = 20

    /// A 96x72 pan across a photo of `frameCount` frames, made by the suite's GIF encoder.
    static let gif: Data = {
        try! GIFFixtureEncoder().encode(SyntheticAnimation.make(width: 96, height: 72, frameCount: frameCount, delayCentiseconds: 7))
    }()

    static func renderer(allowing frames: Int) -> ThumbnailRenderer {
        var configuration = ImageProxy.Configuration()
        configuration.limits.maxAnimationFrames = frames
        return ThumbnailRenderer(
            decoders: configuration.decoders, limits: configuration.limits, resultLimits: configuration.resultLimits,
            quality: configuration.quality, keepsColorProfile: configuration.keepsColorProfile)
    }

    static func job(_ renderer: ThumbnailRenderer, _ path: String, format: OutputFormat) throws -> ThumbnailRenderer.Job {
        var options = ProcessingOptions()
        for segment in path.split(separator: "/") {
            try OptionParser.apply(String(segment), to: &options, presets: [:], depth: 0)
        }
        return try renderer.job(for: renderer.survey(gif, options: options), options: options, format: format)
    }

    @Test("an animated output's estimate counts its encoder's bound; a still's counts none", arguments: [OutputFormat.webp, .gif])
    func estimateCountsTheEncoder(format: OutputFormat) throws {
        let animated = try Self.job(Self.renderer(allowing: 100), "rs:fit:48:48", format: format)
        #expect(animated.frameCount == Self.frameCount)
        let pixels = 48 * 36
        let encoder = AnimatedEncoderMemory.bytes(format: format, pixels: pixels, frames: Self.frameCount)
        #expect(animated.encoderMemory == encoder)
        #expect(encoder >= pixels * Self.frameCount, "the encoded frames grow with the frames processed")
        let decoded = try #require(animated.decode.estimatedMemory)
        #expect(animated.estimatedMemory == decoded + (pixels + pixels) * 4 + encoder)

        let still = try Self.job(Self.renderer(allowing: 1), "rs:fit:48:48", format: format)
        #expect(still.frameCount == 1)
        #expect(still.encoderMemory == 0)
        let stillDecoded = try #require(still.decode.estimatedMemory)
        #expect(still.estimatedMemory == stillDecoded + (pixels + pixels) * 4)
        // Fewer frames processed, a smaller bound.
        let five = try Self.job(Self.renderer(allowing: 100), "maf:5/rs:fit:48:48", format: format)
        #expect(five.encoderMemory < animated.encoderMemory)
    }

    @Test("the encoded frames the bound counts cover the file each encoder writes", arguments: [OutputFormat.webp, .gif])
    func boundCoversTheOutput(format: OutputFormat) throws {
        let renderer = Self.renderer(allowing: 100)
        let job = try Self.job(renderer, "rs:fit:48:48/q:100", format: format)
        let output = try renderer.render(Self.gif, job)
        let pixels = job.plan.outputSize.pixelCount
        #expect(output.count <= pixels * job.frameCount * AnimatedEncoderMemory.encodedBytesPerPixel(format), "\(output.count) bytes")
        // The output is the animation: every frame processed is in it.
        let decoded = try ImageDecoderRegistry.allFormats.decode(output, options: DecodeOptions(frameBuffering: .allFrames))
        #expect(decoded.frameCount == Self.frameCount)
    }
}
