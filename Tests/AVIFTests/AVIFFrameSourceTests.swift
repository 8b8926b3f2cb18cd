import Foundation
import Testing
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageFixtures

/// AVIF sequences composed on demand: libavif seeks to any frame from its keyframe, and
/// every frame equals the eager decode's.
@Suite("AVIFDecoder: sequences on demand")
struct AVIFFrameSourceTests {
    /// Twelve frames of changing colour, 40 to 150 ms each.
    static func sequence() throws -> Data {
        let frames = try (0..<12).map { index in
            let bitmap = try SyntheticImage.solid(width: 24, height: 16, rgba: [UInt8(index * 20), UInt8(240 - index * 20), 90, 255])
            let delay = Duration.milliseconds(40 + index * 10)
            return ImageFrame(bitmap: bitmap, duration: delay, storedDelay: delay)
        }
        return try AVIFEncoder(quality: 80, speed: 10).encodeAnimation(DecodedImage(format: .avif, frames: frames))
    }

    @Test("every frame, reached in any order, equals the eager decode's frame, with its delay")
    func framesEqualTheEagerDecode() throws {
        let data = try Self.sequence()
        let eager = try AVIFDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        let lazy = try AVIFDecoder().decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0)))
        let source = try #require(lazy.frameSource)
        #expect(eager.frames.count == 12)
        #expect(lazy.frameCount == 12)
        #expect(lazy.loopCount == eager.loopCount)
        for index in [11, 0, 5, 4, 9, 10, 1, 3, 2, 8, 7, 6, 11] {
            #expect(try lazy.frame(at: index).bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            #expect(source.duration(ofFrame: index) == eager.frames[index].duration)
            #expect(source.storedDelay(ofFrame: index) == eager.frames[index].storedDelay)
        }
    }

    @Test("through a prepared decode too (the manager's path)")
    func preparedDecode() throws {
        let data = try Self.sequence()
        let prepared = AVIFDecoder().prepareDecode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0)))
        let image = try prepared.decode()
        #expect(image.frameSource != nil)
        #expect(image.frameCount == 12)
    }
}
