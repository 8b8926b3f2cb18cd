import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageWebP

/// Animated WebP files, made at test time with libwebp's animation encoder.
@Suite("WebPDecoder: animations")
struct WebPAnimationTests {
    /// Three lossless frames of different colours, one translucent.
    static func frames() throws -> [ImageBitmap] {
        [
            try WebPTestImages.solid((255, 0, 0, 255)), try WebPTestImages.solid((0, 255, 0, 255)),
            try WebPTestImages.solid((0, 0, 255, 128)),
        ]
    }

    static func animation(durations: [Int] = [50, 120, 5], loopCount: Int = 3) throws -> Data {
        try WebPFixtureEncoder(lossless: true).encodeAnimation(try frames(), durations: durations, loopCount: loopCount)
    }

    @Test("decoded whole, an animation of more than 32 MiB of frames has every frame mapped on its own; a short one's come from malloc")
    func frameStorage() throws {
        let short = try WebPDecoder().decode(try Self.animation())
        #expect(short.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
        // Nine 1000x1000 frames: 34 MiB, each below the huge-page threshold (4 MiB).
        let colours: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 0, 0, 255), (0, 255, 0, 255)]
        let frames = try (0..<9).map { try WebPTestImages.solid(colours[$0 % 2], width: 1000, height: 1000) }
        let data = try WebPFixtureEncoder(lossless: true).encodeAnimation(frames, durations: Array(repeating: 40, count: 9), loopCount: 0)
        let long = try WebPDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        try #require(long.frames.count == 9)
        #if os(Linux)
            #expect(long.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
        // Scaled, the frames count at the size they are kept at: 33 MiB at 980 px, 9 MiB at 500.
        let large = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: 980, frameBuffering: .allFrames))
        let small = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: 500, frameBuffering: .allFrames))
        #expect(large.frames[0].bitmap.size == PixelSize(width: 980, height: 980))
        #if os(Linux)
            #expect(large.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
        #expect(small.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
    }

    @Test("every frame is composed on the canvas, with its duration and the loop count")
    func framesAndTiming() throws {
        let image = try WebPDecoder().decode(try Self.animation())
        #expect(image.format == .webp)
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 3)
        #expect(image.frames.map(\.storedDelay) == [.milliseconds(50), .milliseconds(120), .milliseconds(5)])
        #expect(
            image.frames.map(\.duration) == [.milliseconds(50), .milliseconds(120), .milliseconds(100)],
            "5 ms plays as 100 ms, the browser rule")
        #expect(image.frames[0].bitmap.packedBytes == (try WebPTestImages.solid((255, 0, 0, 255))).packedBytes)
        #expect(image.frames[1].bitmap.packedBytes == (try WebPTestImages.solid((0, 255, 0, 255))).packedBytes)
        // The third frame is blended over the second (blend op "alpha" by default in
        // libwebp's encoder unless it chose to replace the rectangle): either way every
        // pixel is the same.
        let third = image.frames[2].bitmap.packedBytes
        #expect(Set(stride(from: 0, to: third.count, by: 4).map { Array(third[$0..<$0 + 4]) }).count == 1)
    }

    @Test("an animation that loops forever says 0")
    func loopsForever() throws {
        #expect(try WebPDecoder().decode(try Self.animation(loopCount: 0)).loopCount == 0)
    }

    @Test("firstFrameOnly decodes one frame; maxPixelSize scales every frame")
    func options() throws {
        let data = try Self.animation()
        let first = try WebPDecoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        let scaled = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: 24))
        #expect(scaled.frames.count == 3)
        #expect(scaled.frames.allSatisfy { $0.bitmap.size == PixelSize(width: 24, height: 16) })
        #expect(scaled.sourceSize == PixelSize(width: 48, height: 32))
        let red = scaled.frames[0].bitmap.packedBytes
        #expect(red[0] == 255 && red[1] == 0 && red[3] == 255)
    }

    @Test("the frame reader yields the frames one at a time, then nil")
    func frameReader() throws {
        let reader = try WebPDecoder().makeFrameReader(for: try Self.animation(), options: .default)
        #expect(reader.info.size == PixelSize(width: 48, height: 32))
        #expect(reader.loopCount == 3)
        var count = 0
        while let frame = try reader.nextFrame() {
            count += 1
            #expect(frame.bitmap.size == reader.info.size)
        }
        #expect(count == 3)
        #expect(try reader.nextFrame() == nil)
    }

    @Test("a still file read as frames gives one frame")
    func stillAsFrames() throws {
        let data = try WebPFixtureEncoder(lossless: true).encode(try WebPTestImages.solid((1, 2, 3, 255)))
        let reader = try WebPDecoder().makeFrameReader(for: data, options: .default)
        #expect(try reader.nextFrame() != nil)
        #expect(try reader.nextFrame() == nil)
    }

    @Test("limits: frames times the canvas, and the frame count, are checked before decoding")
    func limits() throws {
        let data = try Self.animation()
        let canvas = 48 * 32
        let overPixels = #expect(throws: ImageDecodingError.self) {
            try WebPDecoder().decode(data, options: DecodeOptions(maxPixelCount: canvas * 3 - 1))
        }
        #expect(overPixels?.code == .tooLarge)
        #expect(try WebPDecoder().decode(data, options: DecodeOptions(maxPixelCount: canvas, firstFrameOnly: true)).frames.count == 1)
        let overFrames = #expect(throws: ImageDecodingError.self) {
            try WebPDecoder().decode(data, options: DecodeOptions(maxFrameCount: 2))
        }
        #expect(overFrames?.code == .tooLarge)
        #expect(WebPDecoder().estimatedMemory(decoding: data, options: .default) == canvas * 4 * 3 + canvas * 4 * 2)
    }

    @Test("an animation cut short is truncated, whatever the cut")
    func truncated() throws {
        let data = try Self.animation()
        for length in stride(from: 1, to: data.count, by: max(1, data.count / 40)) {
            let error = #expect(throws: ImageDecodingError.self, "\(length) of \(data.count) bytes") {
                try WebPDecoder().decode(data.prefix(length))
            }
            #expect(
                error.map { [.truncated, .invalidHeader, .corrupt].contains($0.code) } == true, "\(length): \(String(describing: error))")
        }
    }
}

/// Whether two frame lists hold the same pixels and durations.
func sameFrames(_ lhs: [ImageFrame], _ rhs: [ImageFrame]) -> Bool {
    lhs.count == rhs.count
        && zip(lhs, rhs).allSatisfy { $0.duration == $1.duration && $0.bitmap.packedBytes == $1.bitmap.packedBytes }
}
