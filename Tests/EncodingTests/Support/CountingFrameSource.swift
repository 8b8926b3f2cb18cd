import Synchronization
import WebImageCore

@testable import WebImageConcurrency

/// A frame source of `frameCount` generated frames that knows how many of the frames it
/// made are still alive: each frame's pixels are watched through a weak reference, and
/// every request for a frame first counts the earlier ones not yet freed. What shows an
/// encoder holding a bounded number of frames, not the whole animation.
final class CountingFrameSource: ImageFrameSource {
    let frameCount: Int
    let size: PixelSize
    let loopCount: Int
    let delay: Duration
    private let state = Locked(State())

    private struct State {
        var watched: [WeakStorage] = []
        var mostAlive = 0
        var made = 0
    }

    init(frameCount: Int, size: PixelSize, loopCount: Int = 0, delay: Duration = .milliseconds(50)) {
        self.frameCount = frameCount
        self.size = size
        self.loopCount = loopCount
        self.delay = delay
    }

    /// The most earlier frames found alive when a frame was asked for.
    var mostFramesAlive: Int { state.withLock { $0.mostAlive } }
    /// Frames made so far.
    var framesMade: Int { state.withLock { $0.made } }

    func duration(ofFrame index: Int) -> Duration { delay }
    func storedDelay(ofFrame index: Int) -> Duration { delay }

    func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame {
        let bitmap = try Self.pixels(of: index, size: size)
        state.withLock { state in
            let alive = state.watched.filter { $0.storage != nil }.count
            state.mostAlive = max(state.mostAlive, alive)
            state.watched = state.watched.filter { $0.storage != nil } + [WeakStorage(storage: bitmap.storage)]
            state.made += 1
        }
        return ImageFrame(bitmap: bitmap, duration: delay, storedDelay: delay)
    }

    var byteLimit: Int { 0 }
    var bufferedByteCount: Int { 0 }
    func releaseBuffer() {}

    func makeFrameReader() throws(ImageDecodingError) -> any ImageFrameReading { Reader(source: self) }

    /// Frame `index`: a gradient that moves with the index, opaque.
    static func pixels(of index: Int, size: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        try ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8) { bytes, bytesPerRow in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let at = y * bytesPerRow + x * 4
                    bytes[at] = UInt8((x * 4 + index * 8) & 0xFF)
                    bytes[at + 1] = UInt8((y * 4) & 0xFF)
                    bytes[at + 2] = UInt8((index * 16) & 0xFF)
                    bytes[at + 3] = 255
                }
            }
        }
    }

    /// The image a decoder would return for this source: frame 0 held, the rest on demand.
    func image() throws(ImageDecodingError) -> DecodedImage {
        let first = try Self.pixels(of: 0, size: size)
        return DecodedImage(format: .gif, firstFrame: ImageFrame(bitmap: first, duration: delay, storedDelay: delay), frameSource: self)
    }

    private final class Reader: ImageFrameReading {
        let source: CountingFrameSource
        private var next = 0

        init(source: CountingFrameSource) { self.source = source }

        var info: ImageInfo { ImageInfo(format: .gif, size: source.size) }
        var loopCount: Int { source.loopCount }

        func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
            guard next < source.frameCount else { return nil }
            defer { next += 1 }
            return try source.frame(at: next)
        }
    }
}

private struct WeakStorage: @unchecked Sendable {
    weak var storage: PixelStorage?
}
