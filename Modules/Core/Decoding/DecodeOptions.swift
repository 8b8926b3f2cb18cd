/// What to decode and within which limits.
///
/// Options are `Hashable` so that a cache can key decoded images by them: the same
/// bytes decoded with another `maxPixelSize` are a different image.
public struct DecodeOptions: Sendable, Hashable {
    /// The default ``maxPixelCount``: 64 Mi pixels, 256 MiB of RGBA. That holds an
    /// 8192x8192 still, or a 472x298 GIF of 380 frames, and refuses the decompression
    /// bombs that make the peers run out of memory.
    public static let defaultMaxPixelCount = 64 << 20

    /// The default ``maxFrameCount``: 10,000 frames, over five minutes of a 30 fps
    /// animation.
    public static let defaultMaxFrameCount = 10_000

    /// Scale the image down so that its longer side is at most this many pixels,
    /// keeping its aspect ratio; never scaled up. `nil` decodes at full size.
    ///
    /// JPEG scales in the DCT domain to the smallest of libjpeg's M/8 factors that still
    /// covers the target, then resamples exactly, so a 4000x3000 photo asked for at
    /// 500 px never exists at full size in memory. PNG and GIF decode at full size and
    /// then resample (area averaging from 2x, Catmull-Rom below, alpha premultiplied).
    public var maxPixelSize: Int?

    /// The most pixels a decode may allocate, checked from the headers before any
    /// large allocation; over it, decoding fails with
    /// ``ImageDecodingError/Code/tooLarge``.
    ///
    /// What counts is what the decoder must hold: width times height of the full
    /// decode (for JPEG, of the DCT-scaled decode), times the number of frames for an
    /// animation, plus any GIF frame rectangle on its own.
    public var maxPixelCount: Int

    /// The most frames an animation may have, checked as its frames are counted before
    /// any is decoded; over it, decoding fails with ``ImageDecodingError/Code/tooLarge``.
    ///
    /// ``maxPixelCount`` bounds the pixels of all frames together, but not the frames
    /// themselves: a GIF of 40,000 frames of one pixel is within any pixel limit, and
    /// each frame still costs an image of its own.
    public var maxFrameCount: Int

    /// Decode only the first frame of an animation (and stop reading there).
    public var firstFrameOnly: Bool

    /// The layout of the decoded pixels; ``PixelFormat/rgba8`` unless asked.
    public var pixelFormat: PixelFormat

    /// Turn the pixels upright according to the EXIF orientation, and report
    /// ``ImageOrientation/up``. Off by default: the orientation is exposed and the
    /// pixels stay as stored.
    public var appliesOrientation: Bool

    /// What to do with the colour space the file states; ``ColorHandling/convertToSRGB``
    /// (what a browser shows) unless asked. A decoder reads the profile; the decoder
    /// registry converts, when it has a ``ColorConverting``.
    public var color: ColorHandling

    /// Whether an animation's frames are all decoded up front or composed on demand
    /// (``DecodedImage/frameSource``); ``FrameBuffering/default`` decodes whole only
    /// animations of at most 16 MiB of frames. ``FrameBuffering/allFrames`` keeps every
    /// frame in ``DecodedImage/frames``.
    public var frameBuffering: FrameBuffering

    public init(
        maxPixelSize: Int? = nil,
        maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount,
        firstFrameOnly: Bool = false,
        pixelFormat: PixelFormat = .rgba8,
        appliesOrientation: Bool = false,
        maxFrameCount: Int = DecodeOptions.defaultMaxFrameCount,
        color: ColorHandling = .convertToSRGB,
        frameBuffering: FrameBuffering = .default
    ) {
        self.maxPixelSize = maxPixelSize
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.firstFrameOnly = firstFrameOnly
        self.pixelFormat = pixelFormat
        self.appliesOrientation = appliesOrientation
        self.color = color
        self.frameBuffering = frameBuffering
    }

    /// Full size, RGBA, every frame, the default pixel and frame limits.
    public static let `default` = DecodeOptions()

    /// The size a `source`-sized image is scaled to under ``maxPixelSize``.
    public func targetSize(for source: PixelSize) -> PixelSize {
        guard let limit = maxPixelSize, limit > 0, source.longerSide > limit else { return source }
        let scale = Double(limit) / Double(source.longerSide)
        return PixelSize(
            width: Swift.max(1, Int((Double(source.width) * scale).rounded())),
            height: Swift.max(1, Int((Double(source.height) * scale).rounded()))
        )
    }

    /// Throws ``ImageDecodingError/Code/tooLarge`` when `pixels` is over the limit.
    public func checkPixelCount(_ pixels: Int, _ what: @autoclosure () -> String) throws(ImageDecodingError) {
        guard pixels <= maxPixelCount else {
            throw ImageDecodingError(.tooLarge, "\(what()) needs \(pixels) pixels; the limit is \(maxPixelCount)")
        }
    }

    /// Throws ``ImageDecodingError/Code/tooLarge`` when an animation has more than
    /// ``maxFrameCount`` frames.
    public func checkFrameCount(_ frames: Int) throws(ImageDecodingError) {
        guard frames <= maxFrameCount else {
            throw ImageDecodingError(.tooLarge, "at least \(frames) frames; the limit is \(maxFrameCount)")
        }
    }
}
