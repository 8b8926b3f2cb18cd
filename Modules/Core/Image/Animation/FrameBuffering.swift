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
/// The bounds of a frame source are, unless set, a small share of the ``memoryBudget``
/// it is charged to: a thirty-second of its capacity for frames (at most 8 MiB), a
/// sixteenth for snapshots (at most 16 MiB); 8 MiB and 16 MiB when no budget is charged.
/// With the manager's default budget (a quarter of the process's memory, at least
/// 64 MiB), that is 2 MiB and 4 MiB at the least. The ceilings keep what a memory cache
/// charges an animation for (``ImageFrameSource/byteLimit``) from growing with the
/// machine. Animations at most ``eagerByteLimit`` (16 MiB) decode whole whatever the budget.
public struct FrameBuffering: Sendable, Hashable {
    /// Animations whose frames take at most this many bytes are decoded whole.
    public var eagerByteLimit: Int
    /// The most bytes of composed frames a frame source keeps, the most recently used.
    /// Unless set: a thirty-second of ``memoryBudget``'s capacity, at most 8 MiB (8 MiB
    /// without a budget).
    public var bufferByteLimit: Int {
        get { chosenBufferByteLimit ?? Self.share(dividedBy: 32, atMost: 8 << 20, of: memoryBudget) }
        set { chosenBufferByteLimit = newValue }
    }
    /// A frame source keeps the canvas before every this many frames, so that reaching
    /// any frame costs at most this many frame decodes once the snapshots exist (frames
    /// that start on a cleared canvas need none). At least 1.
    public var snapshotInterval: Int
    /// The most bytes of snapshots a frame source keeps; when an animation's snapshots
    /// would take more, they are spaced further apart (the interval doubles until they
    /// fit), trading frame decodes per seek for memory. Unless set: a sixteenth of
    /// ``memoryBudget``'s capacity, at most 16 MiB (16 MiB without a budget).
    public var snapshotByteLimit: Int {
        get { chosenSnapshotByteLimit ?? Self.share(dividedBy: 16, atMost: 16 << 20, of: memoryBudget) }
        set { chosenSnapshotByteLimit = newValue }
    }
    /// Where a frame source charges the memory it holds (see ``MemoryCharging``): its
    /// canvas (and the copies a disposal needs) while it composes, and the frames and snapshots it keeps, each only while it
    /// fits; a frame or snapshot the budget has no room for is not kept (the frame is
    /// still returned; seeking near it later costs more frame decodes). Everything is
    /// given back when the source drops it, when ``ImageFrameSource/releaseBuffer()`` is
    /// called, when a walk over the frames (``DecodedImage/playback(loops:)``,
    /// ``DecodedImage/forEachFrame(_:)``) ends or is cancelled, or when the image is freed.
    ///
    /// `nil` (the default): nothing is charged. The manager sets its own budget
    /// (`ImageManager.Configuration.memoryBudget`) on the loads it decodes.
    public var memoryBudget: (any MemoryCharging)?

    private var chosenBufferByteLimit: Int?
    private var chosenSnapshotByteLimit: Int?

    /// A policy; `bufferByteLimit` and `snapshotByteLimit` left `nil` are a share of
    /// `memoryBudget`'s capacity (see the type's discussion).
    public init(
        eagerByteLimit: Int = 16 << 20, bufferByteLimit: Int? = nil,
        snapshotInterval: Int = 4, snapshotByteLimit: Int? = nil,
        memoryBudget: (any MemoryCharging)? = nil
    ) {
        self.eagerByteLimit = eagerByteLimit
        chosenBufferByteLimit = bufferByteLimit
        self.snapshotInterval = Swift.max(1, snapshotInterval)
        chosenSnapshotByteLimit = snapshotByteLimit
        self.memoryBudget = memoryBudget
    }

    /// On demand above 16 MiB of frames, with the buffer and snapshot bounds a share of
    /// the budget; nothing charged.
    public static let `default` = FrameBuffering()

    /// Every frame decoded up front into ``DecodedImage/frames``.
    public static let allFrames = FrameBuffering(eagerByteLimit: .max)

    /// This policy, charging `budget` unless it already names a budget: the bounds left
    /// unset follow `budget`'s capacity.
    public func charging(_ budget: (any MemoryCharging)?) -> FrameBuffering {
        var policy = self
        if policy.memoryBudget == nil { policy.memoryBudget = budget }
        return policy
    }

    /// Whether an animation of `frameCount` frames of `size` decodes whole.
    public func decodesWhole(frameCount: Int, of size: PixelSize) -> Bool {
        let (frameBytes, overflow1) = size.pixelCount.multipliedReportingOverflow(by: 4)
        let (total, overflow2) = frameBytes.multipliedReportingOverflow(by: frameCount)
        return frameCount <= 1 || (!overflow1 && !overflow2 && total <= eagerByteLimit)
    }

    /// `budget`'s capacity over `divisor`, at most `ceiling`; `ceiling` without a budget.
    private static func share(dividedBy divisor: Int, atMost ceiling: Int, of budget: (any MemoryCharging)?) -> Int {
        guard let budget else { return ceiling }
        return Swift.min(ceiling, Swift.max(0, budget.capacity) / divisor)
    }

    public static func == (lhs: FrameBuffering, rhs: FrameBuffering) -> Bool {
        lhs.eagerByteLimit == rhs.eagerByteLimit && lhs.chosenBufferByteLimit == rhs.chosenBufferByteLimit
            && lhs.snapshotInterval == rhs.snapshotInterval && lhs.chosenSnapshotByteLimit == rhs.chosenSnapshotByteLimit
            && lhs.memoryBudget.map(ObjectIdentifier.init) == rhs.memoryBudget.map(ObjectIdentifier.init)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(eagerByteLimit)
        hasher.combine(chosenBufferByteLimit)
        hasher.combine(snapshotInterval)
        hasher.combine(chosenSnapshotByteLimit)
        hasher.combine(memoryBudget.map(ObjectIdentifier.init))
    }
}
