/// How an animation's frames are held: every frame decoded up front, or composed on
/// demand from a bounded buffer (``ImageFrameSource``).
///
/// An animation whose frames take at most ``eagerByteLimit`` bytes (frame count times
/// width times height times 4, at the decoded size) decodes whole into
/// ``DecodedImage/frames``, as a still does. A longer one decodes its first frame and
/// carries a frame source (``DecodedImage/frameSource``) that keeps at most
/// ``bufferByteLimit`` bytes of composed frames and ``snapshotByteLimit`` bytes of
/// composition snapshots.
///
/// ```swift
/// var options = DecodeOptions()
/// options.frameBuffering = .allFrames        // every frame in `frames`, whatever it costs
/// options.frameBuffering.eagerByteLimit = 4 << 20  // or: on demand above 4 MiB
/// ```
///
/// The defaults (16 MiB eager, 8 MiB of frames, 16 MiB of snapshots) are a small share
/// of the default memory budget (a quarter of the process's memory, at least 64 MiB):
/// six loads of a 1,000-frame 256x256 GIF hold their first frames and compressed files,
/// and a frame source grows to its bounds only while it is played or seeked.
public struct FrameBuffering: Sendable, Hashable {
    /// Animations whose frames take at most this many bytes are decoded whole.
    public var eagerByteLimit: Int
    /// The most bytes of composed frames a frame source keeps, the most recently used.
    public var bufferByteLimit: Int
    /// A frame source keeps the canvas before every this many frames, so that reaching
    /// any frame costs at most this many frame decodes once the snapshots exist (frames
    /// that start on a cleared canvas need none). At least 1.
    public var snapshotInterval: Int
    /// The most bytes of snapshots a frame source keeps; when an animation's snapshots
    /// would take more, they are spaced further apart (the interval doubles until they
    /// fit), trading frame decodes per seek for memory.
    public var snapshotByteLimit: Int

    public init(
        eagerByteLimit: Int = 16 << 20, bufferByteLimit: Int = 8 << 20,
        snapshotInterval: Int = 4, snapshotByteLimit: Int = 16 << 20
    ) {
        self.eagerByteLimit = eagerByteLimit
        self.bufferByteLimit = bufferByteLimit
        self.snapshotInterval = Swift.max(1, snapshotInterval)
        self.snapshotByteLimit = snapshotByteLimit
    }

    /// On demand above 16 MiB of frames, with an 8 MiB frame buffer and 16 MiB of snapshots.
    public static let `default` = FrameBuffering()

    /// Every frame decoded up front into ``DecodedImage/frames``.
    public static let allFrames = FrameBuffering(eagerByteLimit: .max)

    /// Whether an animation of `frameCount` frames of `size` decodes whole.
    public func decodesWhole(frameCount: Int, of size: PixelSize) -> Bool {
        let (frameBytes, overflow1) = size.pixelCount.multipliedReportingOverflow(by: 4)
        let (total, overflow2) = frameBytes.multipliedReportingOverflow(by: frameCount)
        return frameCount <= 1 || (!overflow1 && !overflow2 && total <= eagerByteLimit)
    }
}
