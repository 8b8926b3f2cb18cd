/// The frames of an image in playing order, as an `AsyncSequence`: each frame with how
/// long it is shown, loop after loop as the file says.
///
/// Delays are the browser's (``ImageFrame/duration``: a stored delay of 10 ms or less
/// plays as 100 ms). The sequence does not wait out the delays: an app shows each frame
/// for ``Frame/delay`` and asks for the next, a server encoding the frames takes them as
/// fast as it can. A still image is one frame, played once.
///
/// ```swift
/// for try await frame in image.playback() {
///     show(frame.bitmap)
///     try await Task.sleep(for: frame.delay)
/// }
/// ```
///
/// An animation held whole plays from ``DecodedImage/frames``. One composed on demand
/// (``DecodedImage/frameSource``) is walked by a frame reader of the iterator's own, one
/// frame decode per frame shown; the reader, its canvas and the frame it made are freed,
/// and the canvas's charge to ``FrameBuffering/memoryBudget`` given back, when the
/// iteration ends, throws, or its task is cancelled (the next call then returns `nil`),
/// whatever other iterations of the same image do.
///
/// Thread contract: the sequence is `Sendable`; each iterator belongs to one task. A
/// frame decode blocks the iterating thread for its duration.
public struct ImagePlayback: AsyncSequence, Sendable {
    /// One frame to show.
    public struct Frame: Sendable {
        /// The frame's position in the animation, from 0.
        public let index: Int
        /// Which play of the animation this is, from 0.
        public let loop: Int
        /// The composed frame.
        public let bitmap: ImageBitmap
        /// How long the frame is shown (``ImageFrame/duration``); zero for a still.
        public let delay: Duration
    }

    /// The image played.
    public let image: DecodedImage
    /// How many times the frames are played: 0 means forever.
    public let loops: Int

    /// Plays `image` `loops` times (0: forever), or as often as its ``DecodedImage/loopCount``
    /// says when `loops` is `nil`. A still image plays once, whatever `loops` says.
    public init(_ image: DecodedImage, loops: Int? = nil) {
        self.image = image
        self.loops = image.isAnimated ? Swift.max(0, loops ?? image.loopCount) : 1
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(image: image, loops: loops)
    }

    /// Walks the frames; not `Sendable`: one task iterates it.
    public struct Iterator: AsyncIteratorProtocol {
        private let image: DecodedImage
        private let loops: Int
        private var loop = 0
        private var index = 0
        private var reader: (any ImageFrameReading)?
        private var finished = false

        init(image: DecodedImage, loops: Int) {
            self.image = image
            self.loops = loops
        }

        /// The next frame, or `nil` after the last play, or once the task is cancelled.
        ///
        /// - Throws: ``ImageDecodingError`` when a frame composed on demand is damaged;
        ///   the iteration is then over.
        public mutating func next() async throws -> Frame? {
            guard !finished else { return nil }
            if Task.isCancelled { return finish() }
            if index == image.frameCount {
                loop += 1
                index = 0
                reader = nil
                if loops != 0 && loop >= loops { return finish() }
            }
            let frame: ImageFrame
            do {
                frame = try nextFrame()
            } catch {
                _ = finish()
                throw error
            }
            defer { index += 1 }
            return Frame(index: index, loop: loop, bitmap: frame.bitmap, delay: frame.duration)
        }

        private mutating func nextFrame() throws(ImageDecodingError) -> ImageFrame {
            guard let source = image.frameSource else { return image.frames[index] }
            if reader == nil { reader = try source.makeFrameReader() }
            guard let frame = try reader!.nextFrame() else {
                throw ImageDecodingError(.truncated, "the animation ends after \(index) of \(source.frameCount) frames")
            }
            return frame
        }

        private mutating func finish() -> Frame? {
            finished = true
            reader = nil
            return nil
        }
    }
}

extension DecodedImage {
    /// The frames in playing order, `loops` times (0: forever; `nil`: as
    /// ``loopCount`` says). See ``ImagePlayback``.
    public func playback(loops: Int? = nil) -> ImagePlayback {
        ImagePlayback(self, loops: loops)
    }
}
