import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// APNG frames built at test time: each dispose and blend operation, timing, limits,
/// and the fallbacks.
@Suite("APNG: composition, timing and limits")
struct APNGCompositionTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let halfGreen: [UInt8] = [0, 255, 0, 128]

    private func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let at = y * bitmap.bytesPerRow + x * 4
        return bitmap.withUnsafeBytes { Array($0[at..<(at + 4)]) }
    }

    /// A 4x4 red first frame, then a 2x2 frame at (1, 1) with the given operations, then
    /// a 1x1 blue frame at (0, 0) that shows what the second frame's dispose left.
    private func threeFrames(secondDispose: UInt8, secondBlend: UInt8, second: [UInt8] = halfGreen) throws -> DecodedImage {
        let builder = APNGBuilder(
            width: 4, height: 4,
            frames: [
                .init(bitmap: try APNGBuilder.solid(Self.red, width: 4, height: 4)),
                .init(bitmap: try APNGBuilder.solid(second, width: 2, height: 2), x: 1, y: 1, dispose: secondDispose, blend: secondBlend),
                .init(bitmap: try APNGBuilder.solid(Self.blue, width: 1, height: 1)),
            ])
        return try PNGDecoder().decode(try builder.build())
    }

    @Test("blend source replaces the region, alpha included; over composites")
    func blend() throws {
        let source = try threeFrames(secondDispose: 0, secondBlend: 0)
        #expect(pixel(source.frames[1].bitmap, 1, 1) == Self.halfGreen)
        #expect(pixel(source.frames[1].bitmap, 0, 0) == Self.red)
        let over = try threeFrames(secondDispose: 0, secondBlend: 1)
        // Half green over opaque red: alpha stays 255, colour halfway.
        #expect(pixel(over.frames[1].bitmap, 1, 1) == [127, 128, 0, 255])
    }

    @Test("dispose none keeps the frame, background clears its region, previous restores it")
    func dispose() throws {
        let none = try threeFrames(secondDispose: 0, secondBlend: 0)
        #expect(pixel(none.frames[2].bitmap, 2, 2) == Self.halfGreen)
        let background = try threeFrames(secondDispose: 1, secondBlend: 0)
        #expect(pixel(background.frames[2].bitmap, 2, 2) == [0, 0, 0, 0])
        #expect(pixel(background.frames[2].bitmap, 3, 3) == Self.red, "outside the region")
        let previous = try threeFrames(secondDispose: 2, secondBlend: 0)
        #expect(pixel(previous.frames[2].bitmap, 2, 2) == Self.red)
        #expect(pixel(previous.frames[2].bitmap, 0, 0) == Self.blue, "the third frame itself")
    }

    @Test("delays are num/den seconds (den 0 means 100), played with the browser rule; plays is the loop count")
    func timing() throws {
        var builder = APNGBuilder(
            width: 2, height: 2, plays: 3,
            frames: [
                .init(bitmap: try APNGBuilder.solid(Self.red, width: 2, height: 2), delay: (1, 4)),
                .init(bitmap: try APNGBuilder.solid(Self.blue, width: 2, height: 2), delay: (7, 0)),
                .init(bitmap: try APNGBuilder.solid(Self.red, width: 2, height: 2), delay: (0, 10)),
            ])
        let image = try PNGDecoder().decode(try builder.build())
        #expect(image.loopCount == 3)
        #expect(image.frames.map(\.storedDelay) == [.milliseconds(250), .milliseconds(70), .zero])
        #expect(image.frames.map(\.duration) == [.milliseconds(250), .milliseconds(70), .milliseconds(100)])
        builder.plays = 0
        #expect(try PNGDecoder().decode(try builder.build()).loopCount == 0)
    }

    @Test("a hidden default image is not a frame; firstFrameOnly gives the first animation frame")
    func hiddenDefault() throws {
        let builder = APNGBuilder(
            width: 2, height: 2, hiddenDefault: try APNGBuilder.solid(Self.red, width: 2, height: 2),
            frames: [.init(bitmap: try APNGBuilder.solid(Self.blue, width: 2, height: 2))])
        let data = try builder.build()
        let image = try PNGDecoder().decode(data)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero, "one frame is a still")
        #expect(pixel(image.bitmap, 0, 0) == Self.blue)
        #expect(pixel(try PNGDecoder().decode(data, options: DecodeOptions(firstFrameOnly: true)).bitmap, 0, 0) == Self.blue)
    }

    @Test("broken animation chunks or frame data give the default image")
    func fallbacks() throws {
        let builder = APNGBuilder(
            width: 4, height: 4,
            frames: [
                .init(bitmap: try APNGBuilder.solid(Self.red, width: 4, height: 4)),
                .init(bitmap: try APNGBuilder.solid(Self.blue, width: 4, height: 4)),
            ])
        let good = try builder.build()
        #expect(try PNGDecoder().decode(good).frames.count == 2)
        // The second fcTL's frame made wider than the canvas.
        var outside = good
        let fctl = try #require(
            outside.range(
                of: Data("fcTL".utf8), in: outside.index(after: outside.range(of: Data("IDAT".utf8))!.lowerBound)..<outside.endIndex))
        outside[fctl.upperBound + 4 + 3] = 9
        let fallback = try PNGDecoder().decode(outside)
        #expect(fallback.frames.count == 1)
        #expect(pixel(fallback.bitmap, 0, 0) == Self.red)
        // The fdAT's zlib data damaged, with its CRC recomputed so that only the data is wrong.
        var damaged = good
        let fdat = try #require(damaged.range(of: Data("fdAT".utf8)))
        let length = damaged[(fdat.lowerBound - 4)..<fdat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        for index in (fdat.upperBound + 6)..<(fdat.upperBound + length) { damaged[index] ^= 0xA5 }
        let crc = CRC32.checksum(damaged[fdat.lowerBound..<(fdat.upperBound + length)])
        let crcAt = fdat.upperBound + length
        for (offset, shift) in [(0, 24), (1, 16), (2, 8), (3, 0)] { damaged[crcAt + offset] = UInt8(crc >> UInt32(shift) & 0xFF) }
        let still = try PNGDecoder().decode(damaged)
        #expect(still.frames.count == 1)
        #expect(pixel(still.bitmap, 0, 0) == Self.red)
    }

    @Test("limits: the canvas times the frames, and the frame count, before any frame is decoded")
    func limits() throws {
        let frames = try (0..<5).map { _ in APNGBuilder.Frame(bitmap: try APNGBuilder.solid(Self.red, width: 10, height: 10)) }
        let data = try APNGBuilder(width: 10, height: 10, frames: frames).build()
        let pixels = #expect(throws: ImageDecodingError.self) { try PNGDecoder().decode(data, options: DecodeOptions(maxPixelCount: 499)) }
        #expect(pixels?.code == .tooLarge)
        let count = #expect(throws: ImageDecodingError.self) { try PNGDecoder().decode(data, options: DecodeOptions(maxFrameCount: 4)) }
        #expect(count?.code == .tooLarge)
        #expect(PNGDecoder().estimatedMemory(decoding: data, options: .default) == 5 * 400 + 2 * 400)
    }

    @Test("the frame reader, the scaled decode and the incremental decoder give the same animation")
    func otherPaths() throws {
        let data = try APNGBuilder(
            width: 40, height: 20,
            frames: [
                .init(bitmap: try APNGBuilder.solid(Self.red, width: 40, height: 20)),
                .init(bitmap: try APNGBuilder.solid(Self.blue, width: 20, height: 10), x: 20, y: 10),
            ]
        ).build()
        let whole = try PNGDecoder().decode(data)
        let reader = try PNGDecoder().makeFrameReader(for: data, options: .default)
        var read: [ImageFrame] = []
        while let frame = try reader.nextFrame() { read.append(frame) }
        #expect(read.map(\.bitmap.packedBytes) == whole.frames.map(\.bitmap.packedBytes))
        let scaled = try PNGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 10))
        #expect(scaled.frames.map(\.bitmap.size) == [PixelSize(width: 10, height: 5), PixelSize(width: 10, height: 5)])
        let incremental = PNGDecoder().makeIncrementalDecoder(options: .default)
        for start in stride(from: 0, to: data.count, by: 7) { try incremental.append(data[start..<min(data.count, start + 7)]) }
        let final = try incremental.finish()
        #expect(final.frames.map(\.bitmap.packedBytes) == whole.frames.map(\.bitmap.packedBytes))
    }
}
