import WebImageCore

extension DecodedImage {
    /// This image with only its first `count` frames (at least one): the frames after
    /// are dropped, their timing with them; the loop count is kept. An animation composed
    /// on demand stays on demand, and composes only the frames kept. One frame gives a
    /// still.
    ///
    /// What an image proxy does with imgproxy's `max_animation_frames`: an animation
    /// longer than allowed is cut to its first frames rather than refused.
    ///
    /// ```swift
    /// let teaser = image.keepingFirstFrames(10)
    /// let poster = image.keepingFirstFrames(1)   // a still: frame 0
    /// ```
    public func keepingFirstFrames(_ count: Int) -> DecodedImage {
        let count = Swift.max(1, count)
        guard count < frameCount else { return self }
        var result = self
        guard let source = frameSource else {
            result.frames = Array(frames.prefix(count))
            return result
        }
        // Setting the frames drops the source: a still, or the start of a shorter source.
        result.frames = [frames[0]]
        if count > 1 {
            result.frameSource = (source as? any FrameFinishing)?.keepingFirstFrames(count) ?? FirstFramesSource(source, count: count)
        }
        return result
    }
}

/// The first frames of any frame source (one that cannot cut itself short).
final class FirstFramesSource: ImageFrameSource {
    private let base: any ImageFrameSource
    let frameCount: Int

    init(_ base: any ImageFrameSource, count: Int) {
        self.base = base
        frameCount = Swift.min(count, base.frameCount)
    }

    var size: PixelSize { base.size }
    var loopCount: Int { base.loopCount }
    func duration(ofFrame index: Int) -> Duration { base.duration(ofFrame: index) }
    func storedDelay(ofFrame index: Int) -> Duration { base.storedDelay(ofFrame: index) }

    func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) of \(frameCount)")
        return try base.frame(at: index)
    }

    var byteLimit: Int { base.byteLimit }
    var bufferedByteCount: Int { base.bufferedByteCount }
    func releaseBuffer() { base.releaseBuffer() }

    func makeFrameReader() throws(ImageDecodingError) -> any ImageFrameReading {
        FirstFramesReader(try base.makeFrameReader(), count: frameCount)
    }
}

/// A frame reader that ends after `count` frames.
private final class FirstFramesReader: ImageFrameReading {
    private let base: any ImageFrameReading
    private var remaining: Int

    init(_ base: any ImageFrameReading, count: Int) {
        self.base = base
        remaining = count
    }

    var info: ImageInfo { base.info }
    var loopCount: Int { base.loopCount }
    var colorProfile: ColorProfile? { base.colorProfile }

    func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.nextFrame()
    }
}
