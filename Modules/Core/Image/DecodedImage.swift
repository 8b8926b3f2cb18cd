/// The result of decoding: one frame for a still image, several for an animation,
/// plus what the file said about how to show them.
///
/// A long animation (more than ``FrameBuffering/eagerByteLimit`` bytes of frames) holds
/// only its first frame in ``frames`` and composes the others on demand through
/// ``frameSource``; ``frameCount``, ``isAnimated``, ``totalDuration`` and
/// ``frame(at:)`` answer for every frame either way, and ``playback(loops:)`` plays it.
///
/// ```swift
/// let image = try ImageDecoderRegistry.default.decode(data)
/// print(image.format, image.size, image.frames.count)
/// image.bitmap.withUnsafeBytes { pixels in /* RGBA, straight alpha */ }
/// ```
public struct DecodedImage: Sendable {
    /// The format of the bytes the image came from.
    public var format: ImageFormat
    /// The frames held in memory; never empty. A still image has exactly one; an
    /// animation has all of them, or only its first when it carries a ``frameSource``.
    ///
    /// Setting the frames (a transform changing the pixels) drops the frame source: the
    /// frames set are then the whole image.
    public var frames: [ImageFrame] {
        get { heldFrames }
        set {
            precondition(!newValue.isEmpty, "a decoded image has at least one frame")
            heldFrames = newValue
            frameSource = nil
        }
    }
    private var heldFrames: [ImageFrame]
    /// The animation's frames on demand, when it is too long to hold whole (see
    /// ``FrameBuffering``); `nil` for a still and for an animation held whole in ``frames``.
    public package(set) var frameSource: (any ImageFrameSource)?
    /// How many times an animation plays: 0 means forever (the GIF NETSCAPE2.0
    /// convention); 1 means once, which is also the value for files without a loop
    /// extension and for still images.
    public var loopCount: Int
    /// How the pixels must be turned to display upright (see ``ImageOrientation``).
    public var orientation: ImageOrientation
    /// The size of the image in the file, before any downsampling.
    public var sourceSize: PixelSize
    /// True for an image made from incomplete data by an incremental decoder: rows or
    /// passes not yet received are transparent (PNG, GIF) or grey (JPEG).
    public var isPartial: Bool
    /// The colour facts behind one reference, `nil` when there are none (most images):
    /// a decoded image is copied on every cache hit and every transform, and three
    /// optional profiles inline would make each copy several times the work.
    private var colorFacts: ColorFacts?

    /// The colour space the pixels are in: `nil` for sRGB (an untagged file, an sRGB
    /// profile, or pixels converted to sRGB), otherwise the profile they are in (the
    /// file's, with ``ColorHandling/preserve`` or without a colour engine; the target of
    /// ``ColorHandling/convert(to:)``).
    public var colorProfile: ColorProfile? {
        get { colorFacts?.profile }
        set { setColorFacts(profile: newValue, source: sourceColorProfile, warnings: warnings) }
    }
    /// The profile the file embeds, whatever the pixels were converted to; `nil` for an
    /// untagged file or one whose profile was ignored (see ``warnings``).
    public var sourceColorProfile: ColorProfile? {
        get { colorFacts?.source }
        set { setColorFacts(profile: colorProfile, source: newValue, warnings: warnings) }
    }
    /// What the decode could not honour but worked around, such as an ignored profile.
    public var warnings: [DecodeWarning] {
        get { colorFacts?.warnings ?? [] }
        set { setColorFacts(profile: colorProfile, source: sourceColorProfile, warnings: newValue) }
    }

    public init(
        format: ImageFormat,
        frames: [ImageFrame],
        loopCount: Int = 1,
        orientation: ImageOrientation = .up,
        sourceSize: PixelSize? = nil,
        isPartial: Bool = false,
        colorProfile: ColorProfile? = nil,
        sourceColorProfile: ColorProfile? = nil,
        warnings: [DecodeWarning] = []
    ) {
        precondition(!frames.isEmpty, "a decoded image has at least one frame")
        self.format = format
        self.heldFrames = frames
        self.frameSource = nil
        self.loopCount = loopCount
        self.orientation = orientation
        self.sourceSize = sourceSize ?? frames[0].bitmap.size
        self.isPartial = isPartial
        setColorFacts(profile: colorProfile, source: sourceColorProfile, warnings: warnings)
    }

    /// An animation composed on demand: `firstFrame` (frame 0 of `frameSource`) is held
    /// in ``frames``, the others are made by `frameSource` when asked for.
    public init(
        format: ImageFormat,
        firstFrame: ImageFrame,
        frameSource: any ImageFrameSource,
        orientation: ImageOrientation = .up,
        sourceSize: PixelSize? = nil,
        colorProfile: ColorProfile? = nil,
        sourceColorProfile: ColorProfile? = nil,
        warnings: [DecodeWarning] = []
    ) {
        self.init(
            format: format, frames: [firstFrame], loopCount: frameSource.loopCount, orientation: orientation,
            sourceSize: sourceSize, colorProfile: colorProfile, sourceColorProfile: sourceColorProfile, warnings: warnings)
        self.frameSource = frameSource
    }

    private mutating func setColorFacts(profile: ColorProfile?, source: ColorProfile?, warnings: [DecodeWarning]) {
        let none = profile == nil && source == nil && warnings.isEmpty
        colorFacts = none ? nil : ColorFacts(profile: profile, source: source, warnings: warnings)
    }

    /// The first frame's pixels: the whole image for a still.
    public var bitmap: ImageBitmap { frames[0].bitmap }
    /// The decoded size in pixels (all frames share it).
    public var size: PixelSize { bitmap.size }
    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }
    /// How many frames the image has: ``frames``'s count, or the ``frameSource``'s.
    public var frameCount: Int { frameSource?.frameCount ?? heldFrames.count }
    /// Whether there is more than one frame.
    public var isAnimated: Bool { frameCount > 1 }
    /// Sum of the frames' playback durations.
    public var totalDuration: Duration {
        frameSource?.totalDuration ?? heldFrames.reduce(.zero) { $0 + $1.duration }
    }
    /// Bytes the pixels of the frames held take, plus the most the ``frameSource`` keeps
    /// (``ImageFrameSource/byteLimit``): the natural cost for a memory cache.
    public var byteCount: Int {
        heldFrames.reduce(0) { $0 + $1.bitmap.bytesPerRow * $1.bitmap.height } + (frameSource?.byteLimit ?? 0)
    }

    /// Frame `index` (below ``frameCount``): from ``frames``, or composed by the
    /// ``frameSource``.
    ///
    /// - Throws: ``ImageDecodingError`` from the frame source when the frame is damaged.
    public func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) of \(frameCount)")
        if index == 0 || frameSource == nil { return heldFrames[index] }
        return try frameSource!.frame(at: index)
    }
}

/// What a decoded image says about its colours; immutable, replaced on every change.
private final class ColorFacts: Sendable {
    let profile: ColorProfile?
    let source: ColorProfile?
    let warnings: [DecodeWarning]

    init(profile: ColorProfile?, source: ColorProfile?, warnings: [DecodeWarning]) {
        self.profile = profile
        self.source = source
        self.warnings = warnings
    }
}
