/// An animation whose frames are composed when asked for, rather than all held at once.
///
/// A long animation decoded whole takes its frame count times its canvas in memory: a
/// 23 KB GIF of 1,000 frames of 256x256 is a quarter of a gigabyte. A frame source holds
/// the compressed file, what a scan of its records found (``frameCount``, each frame's
/// timing, ``loopCount``) and a bounded buffer: frames composed lately, and composition
/// snapshots (canvases kept every few frames, see ``FrameBuffering``) from which any
/// frame is reached with a bounded number of frame decodes.
///
/// A decoder returns one inside a ``DecodedImage`` (``DecodedImage/frameSource``) when the
/// animation's frames would take more than ``FrameBuffering/eagerByteLimit``.
///
/// ```swift
/// if let source = image.frameSource {
///     let middle = try source.frame(at: source.frameCount / 2)
///     print(middle.bitmap.size, middle.duration)
/// }
/// ```
///
/// Thread contract: `Sendable`; ``frame(at:)`` may be called from any thread, one call at
/// a time composing (others wait), and blocks its thread for the decodes it needs. Each
/// ``makeFrameReader()`` is a walk of its own, with a canvas of its own.
public protocol ImageFrameSource: AnyObject, Sendable {
    /// The frames the scan found (damage found later makes ``frame(at:)`` throw).
    var frameCount: Int { get }
    /// The size of every frame, after ``DecodeOptions/maxPixelSize``.
    var size: PixelSize { get }
    /// How many times the animation plays: 0 means forever, as ``DecodedImage/loopCount``.
    var loopCount: Int { get }
    /// How long frame `index` is shown, after the browser rule (see
    /// ``ImageFrame/playbackDuration(forStoredDelay:)``), read from the scan.
    func duration(ofFrame index: Int) -> Duration
    /// Frame `index`'s delay as the file wrote it.
    func storedDelay(ofFrame index: Int) -> Duration

    /// Frame `index` composed on the canvas: the same pixels the eager decode gives.
    ///
    /// - Throws: ``ImageDecodingError`` when the frame, or one it is composed on, is
    ///   damaged or truncated.
    func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame

    /// The most bytes the source keeps beside the compressed file: its frame buffer and
    /// its snapshots. A memory cache counts this as the animation's cost.
    var byteLimit: Int { get }
    /// The bytes the frame buffer and snapshots hold now.
    var bufferedByteCount: Int { get }
    /// Frees the frame buffer and the snapshots (the next ``frame(at:)`` composes anew).
    func releaseBuffer()

    /// A walk over the frames in order with a canvas of its own, sharing nothing with
    /// ``frame(at:)``: what playback uses. One frame decode per frame.
    ///
    /// - Throws: ``ImageDecodingError`` when the file cannot be opened again.
    func makeFrameReader() throws(ImageDecodingError) -> any ImageFrameReading
}

extension ImageFrameSource {
    /// The sum of the frames' playback durations.
    public var totalDuration: Duration {
        (0..<frameCount).reduce(.zero) { $0 + duration(ofFrame: $1) }
    }
}
