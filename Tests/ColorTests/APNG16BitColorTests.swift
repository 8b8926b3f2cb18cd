import Foundation
import Testing
import WebImageColor
import WebImageCore
import WebImageDecoding

@Suite("16-bit animated PNG: each frame converted from its 16 bits before it is drawn")
struct APNG16BitColorTests {
    static let width = 96
    static let height = 40
    /// The second frame's place: drawn over the first.
    static let patch = (x: 16, y: 8, width: 48, height: 24)

    /// ProPhoto's primaries and curve, made at test time: a wide gamut whose dark tones
    /// lose the most to the high byte.
    static func profile() throws -> ColorProfile {
        try ColorProfile.rgb(
            white: (0.3457, 0.3585), red: (0.7347, 0.2653), green: (0.1596, 0.8404), blue: (0.0366, 0.0001), gamma: 1.8)
    }

    /// Opaque RGBA samples: dark tones in the top half, mid tones below.
    static func samples(width: Int, height: Int, seed: UInt32) -> [UInt16] {
        var state = seed
        var samples: [UInt16] = []
        for y in 0..<height {
            for _ in 0..<width {
                for _ in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    samples.append(UInt16(Int(state >> 8) % (y < height / 2 ? 6_000 : 40_000)))
                }
                samples.append(65_535)
            }
        }
        return samples
    }

    static let background = samples(width: width, height: height, seed: 7)
    static let overlay = samples(width: patch.width, height: patch.height, seed: 11)

    /// The canvas after the second frame, at 16 bits: the overlay is opaque.
    static let composed: [UInt16] = {
        var canvas = background
        for y in 0..<patch.height {
            for x in 0..<patch.width {
                let to = ((patch.y + y) * width + patch.x + x) * 4
                let from = (y * patch.width + x) * 4
                canvas[to..<(to + 4)] = overlay[from..<(from + 4)]
            }
        }
        return canvas
    }()

    static func file(interlaced: Bool) throws -> Data {
        PNG16Writer.apng(
            width: width, height: height,
            frames: [
                PNG16Writer.Frame(width: width, height: height, samples: background),
                PNG16Writer.Frame(x: patch.x, y: patch.y, width: patch.width, height: patch.height, samples: overlay, blend: 1),
            ],
            interlaced: interlaced, profile: try profile())
    }

    /// Checks each composed frame against LittleCMS on its 16-bit samples, and that
    /// reducing first would have been off.
    static func expectConverted(_ frames: [ImageFrame]) throws {
        let profile = try profile()
        try #require(frames.count == 2)
        for (frame, samples) in zip(frames, [background, composed]) {
            let fromWide = PNG16BitColorTests.rounded(ColorReference.toSRGB(samples: samples, from: profile))
            let fromHighBytes = PNG16BitColorTests.rounded(ColorReference.toSRGB(samples.map { UInt8($0 >> 8) }, from: profile))
            #expect(PNG16BitColorTests.largestDifference(fromHighBytes, fromWide) >= 2)
            let decoded = PNG16BitColorTests.colourBytes(frame.bitmap.packedBytes)
            #expect(PNG16BitColorTests.largestDifference(decoded, fromWide) <= 1)
        }
    }

    @Test("a whole decode's frames are within one level of LittleCMS on the 16-bit samples", arguments: [false, true])
    func whole(interlaced: Bool) throws {
        let profile = try Self.profile()
        let file = try Self.file(interlaced: interlaced)
        let image = try PNG16BitColorTests.registry.decode(file, options: DecodeOptions(frameBuffering: .allFrames))
        #expect(image.frameSource == nil && image.colorProfile == nil && image.sourceColorProfile == profile)
        try Self.expectConverted(image.frames)
    }

    @Test("frames composed on demand are converted from their 16 bits too", arguments: [false, true])
    func onDemand(interlaced: Bool) throws {
        let options = DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0))
        let image = try PNG16BitColorTests.registry.decode(try Self.file(interlaced: interlaced), options: options)
        #expect(image.frameSource != nil && image.colorProfile == nil)
        try Self.expectConverted([image.frame(at: 0), image.frame(at: 1)])
    }

    @Test("a frame reader's frames are converted from their 16 bits, and it reports sRGB", arguments: [false, true])
    func frameReader(interlaced: Bool) throws {
        let file = try Self.file(interlaced: interlaced)
        let decoder = try #require(try PNG16BitColorTests.registry.decoder(for: file) as? any AnimatedImageDecoding)
        let reader = try decoder.makeFrameReader(for: file, options: .default)
        var frames: [ImageFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(reader.colorProfile == nil)
        try Self.expectConverted(frames)
    }

    @Test("the memory estimate of an interlaced 16-bit animation counts one frame's 16-bit copy")
    func estimate() throws {
        let pixels = Self.width * Self.height
        let plain = try Self.file(interlaced: false)
        let interlaced = try Self.file(interlaced: true)
        // Two frames kept, the canvas and one frame's pixels: 16 bytes a pixel; the copy, 8 more.
        #expect(PNGDecoder().estimatedMemory(decoding: plain, options: .default) == pixels * 16)
        #expect(PNGDecoder().estimatedMemory(decoding: interlaced, options: .default) == pixels * 24)
    }
}
