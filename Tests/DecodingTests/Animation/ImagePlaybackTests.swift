import Foundation
import Testing
import WebImageCore
import WebImageDecoding

/// Playing an image: its frames in order with their delays, as many times as it loops,
/// from a frame source or from the frames held.
@Suite("Image playback")
struct ImagePlaybackTests {
    static func gif(frames: Int, loops: UInt16?) -> Data {
        var file = GIFTestFile(width: 8, height: 8)
        file.loopCount = loops
        for index in 0..<frames {
            file.frames.append(
                GIFTestFile.Frame(
                    left: index % 4, top: 0, width: 4, height: 4, indices: [UInt8](repeating: UInt8(index % 3 + 1), count: 16),
                    disposal: UInt8(index % 4), delayHundredths: UInt16(index % 3 * 5)))
        }
        return file.data
    }

    static let onDemand = DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0))

    @Test("an animation composed on demand plays the eager decode's frames and delays, as often as it loops", arguments: [false, true])
    func playsEveryLoop(onDemand: Bool) async throws {
        // NETSCAPE2.0 with 2 stored: the file asks for two plays here (stored as is).
        let data = Self.gif(frames: 12, loops: 2)
        let eager = try GIFDecoder().decode(data, options: DecodeOptions(frameBuffering: .allFrames))
        let image = try GIFDecoder().decode(data, options: onDemand ? Self.onDemand : DecodeOptions(frameBuffering: .allFrames))
        #expect((image.frameSource != nil) == onDemand)
        var played: [ImagePlayback.Frame] = []
        for try await frame in image.playback() { played.append(frame) }
        #expect(played.count == 24)
        #expect(played.map(\.loop) == Array(repeating: 0, count: 12) + Array(repeating: 1, count: 12))
        for frame in played {
            #expect(frame.bitmap.packedBytes == eager.frames[frame.index].bitmap.packedBytes)
            #expect(frame.delay == eager.frames[frame.index].duration)
        }
        #expect(played[0].delay == .milliseconds(100), "a stored 0 plays as 100 ms, as browsers play it")
        #expect(played[1].delay == .milliseconds(50))
    }

    @Test("a loop count of 0 plays forever; an explicit count overrides the file's")
    func loopsForever() async throws {
        let image = try GIFDecoder().decode(Self.gif(frames: 5, loops: 0), options: Self.onDemand)
        var count = 0
        for try await frame in image.playback() {
            count += 1
            if frame.loop == 7 { break }
        }
        #expect(count == 7 * 5 + 1)
        var once = 0
        for try await _ in image.playback(loops: 1) { once += 1 }
        #expect(once == 5)
    }

    @Test("a still plays once, one frame with no delay")
    func still() async throws {
        var file = GIFTestFile(width: 2, height: 2)
        file.frames = [GIFTestFile.Frame(width: 2, height: 2, indices: [1, 2, 3, 0])]
        let image = try GIFDecoder().decode(file.data)
        var frames: [ImagePlayback.Frame] = []
        for try await frame in image.playback(loops: 0) { frames.append(frame) }
        #expect(frames.count == 1)
        #expect(frames.first?.delay == .zero)
    }

    @Test("a cancelled playback ends: the next call gives nil")
    func cancellationEnds() async throws {
        let image = try GIFDecoder().decode(Self.gif(frames: 6, loops: 0), options: Self.onDemand)
        let task = Task {
            var iterator = image.playback().makeAsyncIterator()
            var count = 0
            while try await iterator.next() != nil {
                count += 1
                // The playing task is cancelled after its third frame.
                if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return (count, try await iterator.next() == nil)
        }
        let (count, endsAfter) = try await task.value
        #expect(count == 3, "the frame after cancellation is not composed")
        #expect(endsAfter)
    }
}
