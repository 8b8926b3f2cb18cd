import Synchronization
import WebImageConcurrency
import WebImageCore

/// The frame source the built-in decoders return for long animations, on a format's
/// ``FrameComposing`` reader: timing from the decoder's scan, frames through one
/// ``FrameComposition`` made on first use and freed by ``releaseBuffer()``.
///
/// Thread contract: `Sendable`; one ``frame(at:)`` composes at a time, under a lock.
package final class AnimationFrameSource<Composer: FrameComposing>: ImageFrameSource, FrameFinishing {
    package let info: ImageInfo
    package let frameCount: Int
    package let size: PixelSize
    package let loopCount: Int
    private let durations: [Duration]
    private let storedDelays: [Duration]
    private let policy: FrameBuffering
    private let makeComposer: @Sendable () throws(ImageDecodingError) -> Composer
    /// What every composed frame goes through before it is kept or handed out (a colour
    /// conversion), `nil` for nothing.
    private let finish: (@Sendable (ImageFrame) throws(ImageDecodingError) -> ImageFrame)?
    private let composition = Locked<FrameComposition<Composer>?>(nil)

    /// A source of the frames `makeComposer` composes (each call a reader of its own at
    /// the first frame), `storedDelays` as the scan read them, the frames of `size`.
    package init(
        info: ImageInfo, size: PixelSize, loopCount: Int, storedDelays: [Duration], policy: FrameBuffering,
        finish: (@Sendable (ImageFrame) throws(ImageDecodingError) -> ImageFrame)? = nil,
        makeComposer: @escaping @Sendable () throws(ImageDecodingError) -> Composer
    ) {
        self.finish = finish
        self.info = info
        self.size = size
        self.loopCount = loopCount
        self.frameCount = storedDelays.count
        self.storedDelays = storedDelays
        durations = storedDelays.map { ImageFrame.playbackDuration(forStoredDelay: $0) }
        self.policy = policy
        self.makeComposer = makeComposer
    }

    package func duration(ofFrame index: Int) -> Duration { durations[index] }

    package func storedDelay(ofFrame index: Int) -> Duration { storedDelays[index] }

    package func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) of \(frameCount)")
        return try composition.withLock { (kept) throws(ImageDecodingError) -> ImageFrame in
            if kept == nil {
                kept = FrameComposition(
                    composer: try makeComposer(), frameCount: frameCount, frameBytes: info.size.pixelCount * 4, policy: policy,
                    finish: finish)
            }
            return try kept!.frame(at: index)
        }
    }

    package var byteLimit: Int { policy.bufferByteLimit + policy.snapshotByteLimit }

    package var bufferedByteCount: Int { composition.withLock { $0?.byteCount ?? 0 } }

    package func releaseBuffer() {
        composition.withLock { $0 = nil }
    }

    package func makeFrameReader() throws(ImageDecodingError) -> any ImageFrameReading {
        ComposedFrameReader(
            composer: try makeComposer(), info: info, loopCount: loopCount, frameCount: frameCount, finish: finish,
            charges: ChargedBytes(to: policy.memoryBudget))
    }

    /// A source of the same frames, each through `transform` after this source's own
    /// finishing, of `size` (this source's when `nil`); nothing composed is shared with
    /// this source.
    package func finishingFrames(
        size newSize: PixelSize?, with transform: @escaping @Sendable (ImageFrame) throws(ImageDecodingError) -> ImageFrame
    ) -> any ImageFrameSource {
        let before = finish
        return AnimationFrameSource(
            info: info, size: newSize ?? size, loopCount: loopCount, storedDelays: storedDelays, policy: policy,
            finish: { (frame) throws(ImageDecodingError) -> ImageFrame in try transform(before?(frame) ?? frame) },
            makeComposer: makeComposer)
    }

    /// A source of this one's first `count` frames, sharing nothing composed with it.
    package func keepingFirstFrames(_ count: Int) -> any ImageFrameSource {
        AnimationFrameSource(
            info: info, size: size, loopCount: loopCount, storedDelays: Array(storedDelays.prefix(Swift.max(1, count))),
            policy: policy, finish: finish, makeComposer: makeComposer)
    }

    /// The bytes charged to ``FrameBuffering/memoryBudget`` by the frame buffer now.
    package var chargedByteCount: Int { composition.withLock { $0?.chargedByteCount ?? 0 } }

    /// Frame decodes made since the frame buffer was last released: what seeking costs.
    package var frameDecodes: Int { composition.withLock { $0?.decodes ?? 0 } }
    /// Frames between snapshots, as the snapshot bound has spaced them.
    package var snapshotInterval: Int? { composition.withLock { $0?.interval } }
}

/// A walk over a composer's frames in order, for playback.
final class ComposedFrameReader<Composer: FrameComposing>: ImageFrameReading {
    let info: ImageInfo
    let loopCount: Int
    private let composer: Composer
    private let frameCount: Int
    private let finish: ((ImageFrame) throws(ImageDecodingError) -> ImageFrame)?
    /// What the composer holds (its canvas and disposal copies), held in the budget for
    /// as long as the reader lives.
    private let charges: ChargedBytes

    init(
        composer: Composer, info: ImageInfo, loopCount: Int, frameCount: Int,
        finish: ((ImageFrame) throws(ImageDecodingError) -> ImageFrame)?, charges: ChargedBytes
    ) {
        self.composer = composer
        self.charges = charges
        charges.hold(composer.heldByteCount)
        self.finish = finish
        self.info = info
        self.loopCount = loopCount
        self.frameCount = frameCount
    }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard composer.position < frameCount else { return nil }
        let frame = try composer.composeNext()
        return try finish?(frame) ?? frame
    }
}

/// A frame source whose frames can be passed through a transform as they are composed
/// (a colour conversion, a resize), so that a frame kept in its buffer is transformed
/// once and the transformed animation stays on demand.
package protocol FrameFinishing: ImageFrameSource {
    func finishingFrames(
        size: PixelSize?, with transform: @escaping @Sendable (ImageFrame) throws(ImageDecodingError) -> ImageFrame
    ) -> any ImageFrameSource
    /// A source of this one's first `count` frames (1 or more).
    func keepingFirstFrames(_ count: Int) -> any ImageFrameSource
}
