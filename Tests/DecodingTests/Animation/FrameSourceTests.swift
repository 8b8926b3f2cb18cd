import Foundation
import Testing
import WebImageCore
import WebImageFixtures
import WebImageTestSupport

@testable import WebImageDecoding

/// Long animations composed on demand: the same frames as the eager decode, any frame
/// reached with a bounded number of frame decodes, and bounded memory.
@Suite("Frame sources")
struct FrameSourceTests {
    /// On demand whatever the size.
    static let onDemand = DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0))
    static let eager = DecodeOptions(frameBuffering: .allFrames)

    /// `count` frames on a 64x64 screen: 16x16 rectangles wandering over it, each with a
    /// local palette, a transparent index, and disposals cycling through none,
    /// background and previous; every `coverEvery`th frame covers the screen, opaque.
    static func wanderingGIF(frames count: Int, coverEvery: Int? = 9) -> Data {
        var file = GIFTestFile(width: 64, height: 64)
        file.loopCount = 0
        for index in 0..<count {
            let covers = coverEvery.map { index % $0 == $0 - 1 } ?? false
            let side = covers ? 64 : 16
            let indices = (0..<(side * side)).map { UInt8(($0 / side + $0 % side + index) % 4) }
            let shade = UInt8(index % 256)
            file.frames.append(
                GIFTestFile.Frame(
                    left: covers ? 0 : (index * 7) % 48, top: covers ? 0 : (index * 13) % 48, width: side, height: side,
                    indices: indices,
                    localTable: [(shade, 0, 0), (0, shade, 0), (0, 0, shade), (shade, shade, 255 - shade)],
                    transparentIndex: covers ? nil : 3, disposal: UInt8(index % 4), delayHundredths: UInt16(index % 5)))
        }
        return file.data
    }

    static func frameSource(_ image: DecodedImage) throws -> AnimationFrameSource<GIFFrameReader> {
        try #require(image.frameSource as? AnimationFrameSource<GIFFrameReader>)
    }

    @Test("a long animation carries a frame source and only its first frame; a short one decodes whole")
    func representation() throws {
        let data = Self.wanderingGIF(frames: 300)
        let long = try GIFDecoder().decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 1 << 20)))
        #expect(long.frameSource != nil)
        #expect(long.frames.count == 1)
        #expect(long.frameCount == 300)
        #expect(long.isAnimated)
        #expect(long.loopCount == 0)
        let short = try GIFDecoder().decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 300 * 64 * 64 * 4)))
        #expect(short.frameSource == nil)
        #expect(short.frames.count == 300)
        #expect(long.totalDuration == short.totalDuration)
        #expect(long.byteCount == 64 * 64 * 4 + FrameBuffering.default.bufferByteLimit + FrameBuffering.default.snapshotByteLimit)
    }

    @Test("every frame, reached in any order, equals the eager decode's frame, with its timing")
    func framesEqualTheEagerDecode() throws {
        let data = Self.wanderingGIF(frames: 200)
        let eager = try GIFDecoder().decode(data, options: Self.eager)
        let lazy = try GIFDecoder().decode(data, options: Self.onDemand)
        let source = try Self.frameSource(lazy)
        #expect(source.frameCount == eager.frames.count)
        var order = Array(0..<200)
        var generator = SeededGenerator(seed: 54)
        order.shuffle(using: &generator)
        for index in order + Array(0..<200) {
            let frame = try lazy.frame(at: index)
            #expect(frame.bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            #expect(frame.duration == eager.frames[index].duration)
            #expect(source.duration(ofFrame: index) == eager.frames[index].duration)
            #expect(source.storedDelay(ofFrame: index) == eager.frames[index].storedDelay)
        }
    }

    @Test("once walked, any frame of a 1,000-frame GIF with disposal and local palettes is within 5 frame decodes")
    func seekingIsBounded() throws {
        // No frame covers the screen: only the first starts clean.
        let lazy = try GIFDecoder().decode(Self.wanderingGIF(frames: 1000, coverEvery: nil), options: Self.onDemand)
        let source = try Self.frameSource(lazy)
        // The first walk, as playback or a first seek makes it, takes the snapshots.
        _ = try source.frame(at: 999)
        #expect(source.frameDecodes == 1000)
        #expect(source.snapshotInterval == 4)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let index = Int.random(in: 0..<1000, using: &generator)
            let before = source.frameDecodes
            _ = try source.frame(at: index)
            #expect(source.frameDecodes - before <= 5, "frame \(index)")
        }
    }

    @Test("a frame that starts on a cleared canvas needs no frame before it")
    func cleanStartsNeedNothingBefore() throws {
        let lazy = try GIFDecoder().decode(Self.wanderingGIF(frames: 1000), options: Self.onDemand)
        let source = try Self.frameSource(lazy)
        // Frame 989 covers the screen, opaque, and is not disposed to "previous".
        _ = try source.frame(at: 989)
        #expect(source.frameDecodes == 1)
        _ = try source.frame(at: 991)
        #expect(source.frameDecodes == 3)
    }

    @Test("snapshots and frames stay within their byte bounds; snapshots space out to fit")
    func memoryIsBounded() throws {
        let policy = FrameBuffering(
            eagerByteLimit: 0, bufferByteLimit: 64 * 64 * 4 * 3, snapshotInterval: 2, snapshotByteLimit: 64 * 64 * 4 * 10)
        let lazy = try GIFDecoder().decode(Self.wanderingGIF(frames: 400), options: DecodeOptions(frameBuffering: policy))
        let source = try Self.frameSource(lazy)
        for index in stride(from: 399, through: 0, by: -7) {
            _ = try source.frame(at: index)
            #expect(source.bufferedByteCount <= policy.bufferByteLimit + policy.snapshotByteLimit)
        }
        #expect(try #require(source.snapshotInterval) >= 64, "400 frames in 10 snapshots: every 40th at least, doubled from 2: every 64th")
        #expect(source.bufferedByteCount > 0)
        source.releaseBuffer()
        #expect(source.bufferedByteCount == 0)
        let again = try source.frame(at: 5)
        let eager = try GIFDecoder().decode(Self.wanderingGIF(frames: 400), options: Self.eager)
        #expect(again.bitmap.packedBytes == eager.frames[5].bitmap.packedBytes)
    }

    @Test("a frame source scales its frames as the options ask")
    func scaled() throws {
        let data = Self.wanderingGIF(frames: 40)
        var options = Self.onDemand
        options.maxPixelSize = 32
        let lazy = try GIFDecoder().decode(data, options: options)
        options.frameBuffering = .allFrames
        let eager = try GIFDecoder().decode(data, options: options)
        let source = try #require(lazy.frameSource)
        #expect(source.size == PixelSize(width: 32, height: 32))
        for index in [39, 3, 17] {
            #expect(try lazy.frame(at: index).bitmap.packedBytes == eager.frames[index].bitmap.packedBytes)
        }
    }

    @Test("tasks asking one source for frames at once each get the eager decode's frame")
    func concurrentCallers() async throws {
        let data = Self.wanderingGIF(frames: 120)
        let eager = try GIFDecoder().decode(data, options: Self.eager)
        let lazy = try GIFDecoder().decode(data, options: Self.onDemand)
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<6 {
                group.addTask {
                    var generator = SeededGenerator(seed: UInt64(caller))
                    var wrong = 0
                    for _ in 0..<40 {
                        let index = Int.random(in: 0..<120, using: &generator)
                        let frame = try lazy.frame(at: index)
                        if frame.bitmap.packedBytes != eager.frames[index].bitmap.packedBytes { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("damage past the first frame is reported by the frame it is in")
    func damageIsReportedByItsFrame() throws {
        var data = Self.wanderingGIF(frames: 60)
        // Cut inside the last frame's data: the survey still describes it.
        data.removeLast(40)
        let lazy = try GIFDecoder().decode(data, options: Self.onDemand)
        #expect(lazy.frameCount == 60)
        #expect(try lazy.frame(at: 30).bitmap.size == PixelSize(width: 64, height: 64))
        #expect(throws: ImageDecodingError.self) { try lazy.frame(at: 59) }
        #expect(try lazy.frame(at: 58).bitmap.size == PixelSize(width: 64, height: 64), "a failed frame leaves the source usable")
    }
}

/// Transforms of an animation composed on demand stay on demand, frame by frame.
@Suite("Frame sources: transforms")
struct FrameSourceTransformTests {
    @Test("a resize of an animation composed on demand resizes every frame as it is composed")
    func resizeStaysOnDemand() throws {
        let data = FrameSourceTests.wanderingGIF(frames: 60)
        let resize = ResizeTransformer(width: 24, height: 24)
        let lazy = try resize.transform(try GIFDecoder().decode(data, options: FrameSourceTests.onDemand))
        let eager = try resize.transform(try GIFDecoder().decode(data, options: FrameSourceTests.eager))
        let source = try #require(lazy.frameSource)
        #expect(source.size == PixelSize(width: 24, height: 24))
        #expect(lazy.frameCount == 60)
        for index in [0, 59, 7, 31] {
            #expect(try lazy.frame(at: index).bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
        }
        var walked = 0
        try lazy.forEachFrame { (index, frame) throws(ImageDecodingError) in
            #expect(frame.bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            walked += 1
        }
        #expect(walked == 60)
    }

    @Test(
        "turns and filters of an animation composed on demand apply to every frame as it is composed",
        arguments: [
            OrientationTransformer(.right) as any ImageTransforming, BlurTransformer(sigma: 1.5), SharpenTransformer(sigma: 1),
            PixelateTransformer(blockSize: 5),
        ])
    func transformsStayOnDemand(transformer: any ImageTransforming) throws {
        let data = FrameSourceTests.wanderingGIF(frames: 40)
        let lazy = try transformer.transform(try GIFDecoder().decode(data, options: FrameSourceTests.onDemand))
        let eager = try transformer.transform(try GIFDecoder().decode(data, options: FrameSourceTests.eager))
        #expect(lazy.frameSource != nil, "\(transformer.identifier)")
        #expect(lazy.frameCount == 40)
        for index in [0, 39, 13] {
            #expect(try lazy.frame(at: index).bitmap == eager.frames[index].bitmap, "\(transformer.identifier) frame \(index)")
        }
    }

    @Test("setting the frames of an image makes them the whole image")
    func settingFramesDropsTheSource() throws {
        var image = try GIFDecoder().decode(FrameSourceTests.wanderingGIF(frames: 30), options: FrameSourceTests.onDemand)
        #expect(image.frameCount == 30)
        image.frames = [image.frames[0]]
        #expect(image.frameSource == nil)
        #expect(image.frameCount == 1)
        #expect(!image.isAnimated)
    }
}
