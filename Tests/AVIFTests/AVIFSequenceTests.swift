import Foundation
import Testing
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// AVIF image sequences, written at test time by ``AVIFEncoder/encodeAnimation(_:)``.
@Suite("AVIFDecoder: image sequences")
struct AVIFSequenceTests {
    /// Three frames of three colours, shown 100, 250 and 40 ms.
    static func sequence() throws -> Data {
        let colours: [[UInt8]] = [[200, 30, 30, 255], [30, 200, 30, 255], [30, 30, 200, 255]]
        let delays = [100, 250, 40]
        let frames = try zip(colours, delays).map { colour, delay in
            let bitmap = try SyntheticImage.solid(width: 24, height: 16, rgba: colour)
            return ImageFrame(bitmap: bitmap, duration: .milliseconds(delay), storedDelay: .milliseconds(delay))
        }
        return try AVIFEncoder(quality: 80, speed: 10).encodeAnimation(DecodedImage(format: .avif, frames: frames))
    }

    @Test("every frame decodes whole, with its duration; the sequence loops forever")
    func frames() throws {
        let image = try AVIFDecoder().decode(try Self.sequence())
        #expect(image.frames.count == 3)
        #expect(image.size == PixelSize(width: 24, height: 16))
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.storedDelay) == [.milliseconds(100), .milliseconds(250), .milliseconds(40)])
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(250), .milliseconds(40)])
        let middle = image.frames[1].bitmap.packedBytes
        #expect(abs(Int(middle[1]) - 200) < 16 && abs(Int(middle[0]) - 30) < 16)
    }

    @Test("a sequence of more than 32 MiB of frames maps every frame on its own; scaled below it, from malloc")
    func frameStorage() throws {
        // Nine 1000x1000 frames: 34 MiB, each below the huge-page threshold (4 MiB).
        let colours: [[UInt8]] = [[200, 30, 30, 255], [30, 200, 30, 255]]
        let frames = try (0..<9).map { index in
            let bitmap = try SyntheticImage.solid(width: 1000, height: 1000, rgba: colours[index % 2])
            return ImageFrame(bitmap: bitmap, duration: .milliseconds(40), storedDelay: .milliseconds(40))
        }
        let data = try AVIFEncoder(quality: 50, speed: 10).encodeAnimation(DecodedImage(format: .avif, frames: frames))
        let long = try AVIFDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        try #require(long.frames.count == 9)
        #if os(Linux)
            #expect(long.frames.allSatisfy { $0.bitmap.storage.isMappedOnItsOwn })
        #endif
        let scaled = try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelSize: 500))
        #expect(scaled.frames.count == 9)
        #expect(scaled.frames.allSatisfy { !$0.bitmap.storage.isMappedOnItsOwn })
        // A still is not an animation: its one frame comes from malloc, prefaulted.
        let first = try AVIFDecoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
        #expect(!first.frames[0].bitmap.storage.isMappedOnItsOwn)
    }

    @Test("the frame reader walks the frames one at a time; firstFrameOnly stops after one")
    func reader() throws {
        let data = try Self.sequence()
        let reader = try AVIFDecoder().makeFrameReader(for: data, options: .default)
        #expect(reader.info.size == PixelSize(width: 24, height: 16))
        var count = 0
        while try reader.nextFrame() != nil { count += 1 }
        #expect(count == 3)
        #expect(try AVIFDecoder().decode(data, options: DecodeOptions(firstFrameOnly: true)).frames.count == 1)
    }

    @Test("more frames than maxFrameCount, or frames whose pixels sum over maxPixelCount, are refused before decoding")
    func limits() throws {
        let data = try Self.sequence()
        let frames = #expect(throws: ImageDecodingError.self) { try AVIFDecoder().decode(data, options: DecodeOptions(maxFrameCount: 2)) }
        #expect(frames?.code == .tooLarge)
        let pixels = #expect(throws: ImageDecodingError.self) {
            try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 24 * 16 * 2))
        }
        #expect(pixels?.code == .tooLarge)
        #expect(try AVIFDecoder().decode(data, options: DecodeOptions(maxPixelCount: 24 * 16 * 2, firstFrameOnly: true)).frames.count == 1)
    }

    @Test("a sequence of one frame is a still")
    func oneFrame() throws {
        let bitmap = try AVIFTestImages.quadrants()
        let data = try AVIFEncoder(speed: 10).encodeAnimation(
            DecodedImage(format: .avif, frames: [ImageFrame(bitmap: bitmap, duration: .milliseconds(500), storedDelay: .milliseconds(500))])
        )
        let image = try AVIFDecoder().decode(data)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero)
    }
}
