/// What the proxy refuses to process, as imgproxy's and imagor's operators set it, and how
/// much of an animation it processes. Each limit is checked before the cost it guards: the
/// bytes while they download, the resolution and frames from the header before any pixel
/// is decoded. A source over one gets 422.
public struct SourceLimits: Sendable, Hashable {
    /// The most bytes a source may have (32 MiB): the download stops there.
    public var maxBytes: Int64
    /// The most pixels, width times height summed over the frames processed (50
    /// megapixels, imgproxy's default): a decompression bomb is a small file with a large
    /// resolution, refused here from its header.
    public var maxResolution: Int
    /// The most frames a source may have at all (10,000): counting a hostile file's
    /// frames is a scan of its own, so one with more is refused (422) whatever is asked
    /// of it. imgproxy has no such limit; it stops at the scan's cost.
    public var maxFrames: Int
    /// The most frames an output is made of: imgproxy's `max_animation_frames`, 1 by
    /// default, so only the first frame of an animation is processed. Above 1, an
    /// animated source asked as WebP or GIF keeps its frames, its first this many when it
    /// has more (the rest are dropped, as imgproxy does, not refused).
    public var maxAnimationFrames: Int

    public init(
        maxBytes: Int64 = 32 << 20, maxResolution: Int = 50_000_000, maxFrames: Int = 10_000, maxAnimationFrames: Int = 1
    ) {
        self.maxBytes = maxBytes
        self.maxResolution = maxResolution
        self.maxFrames = maxFrames
        self.maxAnimationFrames = max(1, maxAnimationFrames)
    }
}
