import Foundation
import Testing
import WebImageCore

@testable import WebImageDecoding
@testable import WebImageWebP

/// Animated WebP composed on demand: libwebp's animation decoder's frames, with every
/// blend and disposal, reached in any order with bounded work and memory.
@Suite("WebPDecoder: frames on demand")
struct WebPFrameSourceTests {
    static let onDemand = DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0, snapshotInterval: 3))
    static let eager = DecodeOptions(frameBuffering: .allFrames)

    /// `count` frames on a 48x40 canvas, lossless and lossy, opaque and translucent
    /// (fully transparent pixels with colours of their own among them), blending or
    /// replacing, kept or disposed to the background; every seventh covers the canvas.
    static func wandering(frames count: Int, coverEvery: Int? = 7) throws -> Data {
        var builder = WebPAnimationBuilder(width: 48, height: 40, loopCount: 2)
        for index in 0..<count {
            let covers = index == 0 || coverEvery.map { index % $0 == $0 - 1 } == true
            let opaque = covers && index % 2 == 0
            let width = covers ? 48 : 8 + (index * 6) % 14
            let height = covers ? 40 : 6 + (index * 4) % 16
            let bitmap = try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, stride in
                for y in 0..<height {
                    for x in 0..<width {
                        let at = y * stride + x * 4
                        bytes[at] = UInt8((index * 37 + x * 9) % 256)
                        bytes[at + 1] = UInt8((index * 11 + y * 13) % 256)
                        bytes[at + 2] = UInt8((index * 53) % 256)
                        bytes[at + 3] = opaque ? 255 : [255, 128, 0, 40, 200][(x + y + index) % 5]
                    }
                }
            }
            builder.frames.append(
                WebPAnimationBuilder.Frame(
                    bitmap: bitmap, x: covers ? 0 : 2 * ((index * 5) % (24 - width / 2 + 1)),
                    y: covers ? 0 : 2 * ((index * 3) % (20 - height / 2 + 1)), duration: [30, 70, 5, 100][index % 4],
                    blends: index % 3 != 2, disposesToBackground: index % 4 == 1 || index % 5 == 3, lossless: index % 3 != 1))
        }
        return try builder.build()
    }

    static func frameSource(_ image: DecodedImage) throws -> AnimationFrameSource<WebPFrameComposer> {
        try #require(image.frameSource as? AnimationFrameSource<WebPFrameComposer>)
    }

    /// The indices in an order that jumps back and forth.
    static func scattered(_ count: Int) -> [Int] {
        (0..<count).map { ($0 * 17 + 5) % count }
    }

    @Test("every frame, reached in any order, equals libwebp's animation decoder's frame, with its timing")
    func framesEqualTheEagerDecode() throws {
        let data = try Self.wandering(frames: 61)
        let eager = try WebPDecoder().decode(data, options: Self.eager)
        let lazy = try WebPDecoder().decode(data, options: Self.onDemand)
        let source = try Self.frameSource(lazy)
        #expect(eager.frameSource == nil)
        #expect(eager.frames.count == 61)
        #expect(lazy.frames.count == 1)
        #expect(source.frameCount == 61)
        #expect(lazy.loopCount == 2)
        #expect(eager.frames.map { $0.bitmap.packedBytes } == LibWebPReference.frames(data))
        for index in Self.scattered(61) + Array((0..<61).reversed()) {
            let frame = try lazy.frame(at: index)
            #expect(frame.bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
            #expect(frame.duration == eager.frames[index].duration)
            #expect(source.storedDelay(ofFrame: index) == eager.frames[index].storedDelay)
        }
    }

    @Test("the test animation has every kind of frame: key frames, blends over kept and over cleared rectangles")
    func theAnimationCoversEveryRule() throws {
        let data = try Self.wandering(frames: 61)
        let scanned = try data.withUnsafeBytes { bytes in
            try WebPFrameRecord.scan(bytes, canvas: PixelSize(width: 48, height: 40), options: DecodeOptions())
        }
        let records = scanned.records
        let keys = WebPFrameRecord.keyFrames(records, canvas: PixelSize(width: 48, height: 40))
        #expect(keys.filter { $0 }.count > 1)
        #expect(keys.filter { !$0 }.count > 30)
        let blended = records.indices.dropFirst().filter { !keys[$0] && records[$0].blends }
        #expect(blended.contains { records[$0 - 1].disposesToBackground })
        #expect(blended.contains { !records[$0 - 1].disposesToBackground })
        #expect(records.contains { !$0.hasAlpha } && records.contains { $0.hasAlpha })
    }

    @Test("the frame reader of a source walks the eager decode's frames")
    func frameReader() throws {
        let data = try Self.wandering(frames: 30)
        let eager = try WebPDecoder().decode(data, options: Self.eager)
        let source = try #require(try WebPDecoder().decode(data, options: Self.onDemand).frameSource)
        let reader = try source.makeFrameReader()
        var frames: [ImageFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(sameFrames(frames, eager.frames))
    }

    @Test("a frame source scales its frames as the options ask")
    func scaled() throws {
        let data = try Self.wandering(frames: 20)
        var options = Self.onDemand
        options.maxPixelSize = 24
        let lazy = try WebPDecoder().decode(data, options: options)
        options.frameBuffering = .allFrames
        let eager = try WebPDecoder().decode(data, options: options)
        let source = try #require(lazy.frameSource)
        #expect(source.size == PixelSize(width: 24, height: 20))
        for index in [19, 3, 11, 12] {
            #expect(try lazy.frame(at: index).bitmap.packedBytes == eager.frames[index].bitmap.packedBytes, "frame \(index)")
        }
    }

    @Test("once walked, any frame of a 400-frame animation with no key frame but the first is within 4 frame decodes")
    func seekingIsBounded() throws {
        let data = try Self.wandering(frames: 400, coverEvery: nil)
        let lazy = try WebPDecoder().decode(data, options: DecodeOptions(frameBuffering: FrameBuffering(eagerByteLimit: 0)))
        let source = try Self.frameSource(lazy)
        _ = try source.frame(at: 399)
        #expect(source.frameDecodes == 400)
        #expect(source.snapshotInterval == 4)
        for index in Self.scattered(400).prefix(150) {
            let before = source.frameDecodes
            _ = try source.frame(at: index)
            #expect(source.frameDecodes - before <= 4, "frame \(index)")
        }
    }

    @Test("a key frame needs no frame before it; a frame after one is composed from it")
    func keyFramesNeedNothingBefore() throws {
        let data = try Self.wandering(frames: 61)
        let lazy = try WebPDecoder().decode(data, options: Self.onDemand)
        let source = try Self.frameSource(lazy)
        let keys = try Self.keyFrames(data)
        // Frame 48 covers the canvas and is opaque.
        #expect(keys[48])
        _ = try source.frame(at: 48)
        #expect(source.frameDecodes == 1)
        // The next frame that is not a key frame is composed from the latest key frame,
        // or from where the composition stands (after frame 48), whichever is later.
        let after = try #require((50..<61).first { !keys[$0] })
        let start = max(49, try #require((0..<after).last { keys[$0] }))
        _ = try source.frame(at: after)
        #expect(source.frameDecodes == 1 + (after - start + 1), "frames \(start) to \(after)")
    }

    /// Which frames of `data` start on a cleared canvas.
    static func keyFrames(_ data: Data) throws -> [Bool] {
        let records = try data.withUnsafeBytes { bytes in
            try WebPFrameRecord.scan(bytes, canvas: PixelSize(width: 48, height: 40), options: DecodeOptions()).records
        }
        return WebPFrameRecord.keyFrames(records, canvas: PixelSize(width: 48, height: 40))
    }

    @Test("frames and snapshots stay within their byte bounds")
    func memoryIsBounded() throws {
        let canvas = 48 * 40 * 4
        let policy = FrameBuffering(eagerByteLimit: 0, bufferByteLimit: canvas * 3, snapshotInterval: 2, snapshotByteLimit: canvas * 5)
        let data = try Self.wandering(frames: 120, coverEvery: nil)
        let lazy = try WebPDecoder().decode(data, options: DecodeOptions(frameBuffering: policy))
        let source = try Self.frameSource(lazy)
        for index in stride(from: 119, through: 0, by: -9) {
            _ = try source.frame(at: index)
            #expect(source.bufferedByteCount <= source.byteLimit)
        }
        #expect(source.byteLimit == canvas * 8)
        #expect(try #require(source.snapshotInterval) >= 32, "120 frames in 5 snapshots")
        source.releaseBuffer()
        #expect(source.bufferedByteCount == 0)
    }

    @Test("the memory estimate of an animation composed on demand counts its first frame, not every frame")
    func estimate() throws {
        let data = try Self.wandering(frames: 30)
        let canvas = 48 * 40 * 4
        #expect(WebPDecoder().estimatedMemory(decoding: data, options: Self.onDemand) == canvas + 2 * canvas)
        #expect(WebPDecoder().estimatedMemory(decoding: data, options: Self.eager) == 30 * canvas + 2 * canvas)
        #expect(WebPDecoder().prepareDecode(data, options: Self.onDemand).estimatedMemory == canvas + 2 * canvas)
    }

    @Test("an animation cut short is refused with a typed error, whatever the cut")
    func truncated() throws {
        let data = try Self.wandering(frames: 12)
        for length in stride(from: 1, to: data.count, by: max(1, data.count / 50)) {
            let error = #expect(throws: ImageDecodingError.self, "\(length) of \(data.count) bytes") {
                try WebPDecoder().decode(data.prefix(length), options: Self.onDemand)
            }
            #expect(
                error.map { [.truncated, .invalidHeader, .corrupt].contains($0.code) } == true, "\(length): \(String(describing: error))")
        }
    }

    @Test("more frames than maxFrameCount are refused before any canvas exists")
    func tooManyFrames() throws {
        let tiny = try ImageBitmap(width: 2, height: 2, pixelFormat: .rgba8) { bytes, _ in
            for index in 0..<16 { bytes[index] = 200 }
        }
        var builder = WebPAnimationBuilder(width: 2, height: 2)
        builder.frames = Array(repeating: WebPAnimationBuilder.Frame(bitmap: tiny), count: 3000)
        let data = try builder.build()
        var options = Self.onDemand
        options.maxFrameCount = 2000
        let error = #expect(throws: ImageDecodingError.self) { try WebPDecoder().decode(data, options: options) }
        #expect(error?.code == .tooLarge)
        options.maxFrameCount = 3000
        #expect(try WebPDecoder().decode(data, options: options).frameCount == 3000)
    }

    @Test("damage in a later frame's data is reported by that frame; the frames before stay readable")
    func damageIsReportedByItsFrame() throws {
        var builder = WebPAnimationBuilder(width: 48, height: 40)
        let photo = try WebPTestImages.photo(width: 48, height: 40)
        builder.frames = Array(repeating: WebPAnimationBuilder.Frame(bitmap: photo), count: 6)
        var data = try builder.build()
        // Garble the last frame's entropy-coded data, past the header the demuxer reads.
        let last = try #require(data.lastRange(of: Data("VP8L".utf8)))
        for offset in (last.upperBound + 12)..<min(data.count, last.upperBound + 400) { data[offset] ^= 0x5A }
        let lazy = try WebPDecoder().decode(data, options: Self.onDemand)
        #expect(lazy.frameCount == 6)
        #expect(throws: ImageDecodingError.self, "the eager decode fails too") { try WebPDecoder().decode(data, options: Self.eager) }
        _ = try lazy.frame(at: 4)
        let error = #expect(throws: ImageDecodingError.self) { try lazy.frame(at: 5) }
        #expect(error.map { [.corrupt, .truncated].contains($0.code) } == true, "\(String(describing: error))")
        #expect(try lazy.frame(at: 3).bitmap.size == PixelSize(width: 48, height: 40), "a failed frame leaves the source usable")
    }
}
