import Foundation
import WebImageCore
import WebImageDecoding

/// Fuzz target `gif`: one input through ``GIFDecoder``, whole and frame by frame.
public enum GIFHarness {
    /// Decodes `data` as GIF with the checks of every decoder, then walks the same bytes
    /// with the frame reader, which must yield exactly the frames of the whole decode
    /// (same count, pixels and timing): the two share the compositing code, and a drift
    /// between them would show as a different animation in a streaming player.
    /// Also checks the timing rule: a still lasts zero, an animation frame follows the
    /// browser rule for tiny delays.
    public static func run(_ data: Data) -> FuzzOutcome {
        let decoder = GIFDecoder()
        return DecoderHarness.run(decoder, data) { image in
            checkTiming(image)
            compareWithFrameReader(image, decoder: decoder, data: data)
        }
    }

    private static func checkTiming(_ image: DecodedImage) {
        if image.frames.count == 1 {
            fuzzCheck(image.frames[0].duration == .zero, "a still GIF lasts \(image.frames[0].duration)")
            return
        }
        for (index, frame) in image.frames.enumerated() {
            let expected = ImageFrame.playbackDuration(forStoredDelay: frame.storedDelay)
            fuzzCheck(frame.duration == expected, "frame \(index) lasts \(frame.duration) for a stored \(frame.storedDelay)")
        }
    }

    private static func compareWithFrameReader(_ image: DecodedImage, decoder: GIFDecoder, data: Data) {
        let reader: any ImageFrameReading
        do {
            reader = try decoder.makeFrameReader(for: data, options: FuzzDecodeOptions.full)
        } catch {
            fuzzFailure("decode worked but the frame reader failed: \(error)")
        }
        fuzzCheck(reader.loopCount == image.loopCount, "frame reader loop count \(reader.loopCount) vs \(image.loopCount)")
        fuzzCheck(reader.info.size == image.sourceSize, "frame reader size \(reader.info.size) vs \(image.sourceSize)")
        var index = 0
        while true {
            let next: ImageFrame?
            do {
                next = try reader.nextFrame()
            } catch {
                fuzzFailure("decode worked but the frame reader failed at frame \(index): \(error)")
            }
            guard let frame = next else { break }
            fuzzCheck(index < image.frames.count, "the frame reader yields more than \(image.frames.count) frames")
            let expected = image.frames[index]
            fuzzCheck(frame.bitmap == expected.bitmap, "frame \(index) differs between the reader and the decode")
            fuzzCheck(frame.duration == expected.duration, "frame \(index) duration differs between the reader and the decode")
            index += 1
        }
        fuzzCheck(index == image.frames.count, "the frame reader yields \(index) frames, the decode \(image.frames.count)")
    }
}
