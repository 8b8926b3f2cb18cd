import WebImageCore

/// Reaches any frame of an animation through a ``FrameComposing`` reader, with bounded
/// work and bounded memory: a buffer of frames composed lately, and snapshots of the
/// reader's state taken every ``interval`` frames on the way.
///
/// Reaching frame `i` starts from the nearest of: the reader's position (when at or
/// before `i`), the latest snapshot at or before `i`, and the latest frame at or before
/// `i` that starts clean; then composes forward to `i`, taking the snapshots it passes
/// that are missing. Once a region has been walked, any frame in it is at most
/// `interval` frame decodes away.
///
/// Not `Sendable`: ``AnimationFrameSource`` calls it under its lock.
final class FrameComposition<Composer: FrameComposing> {
    private let composer: Composer
    let frameCount: Int
    /// Frames between snapshots.
    private(set) var interval: Int
    private let snapshotByteLimit: Int
    private var snapshots: [Int: Composer.Checkpoint] = [:]
    private(set) var snapshotBytes = 0
    private(set) var buffer: FrameBuffer
    /// Frame decodes made so far (what a seek costs is counted in these).
    private(set) var decodes = 0
    /// Whether the reader's state is the one ``FrameComposing/position`` says (not after
    /// a throw halfway through a frame).
    private var positionIsSound = true
    private let finish: ((ImageFrame) throws(ImageDecodingError) -> ImageFrame)?
    /// What the composition charges its budget (``FrameBuffering/memoryBudget``): what
    /// the reader holds (its canvas and disposal copies), for the composition's life,
    /// and the frames and snapshots it keeps; given back as they are dropped, the rest
    /// when the composition is freed.
    private let charges: ChargedBytes

    /// A composition of `frameCount` frames of `frameBytes` bytes each (the size of one
    /// snapshot, about) through `composer`, as `policy` bounds it; the frame asked for
    /// goes through `finish` before it is kept. What the composer holds
    /// (``FrameComposing/heldByteCount``) is charged for the composition's life.
    init(
        composer: Composer, frameCount: Int, frameBytes: Int, policy: FrameBuffering,
        finish: ((ImageFrame) throws(ImageDecodingError) -> ImageFrame)? = nil
    ) {
        self.composer = composer
        self.finish = finish
        self.frameCount = frameCount
        snapshotByteLimit = policy.snapshotByteLimit
        charges = ChargedBytes(to: policy.memoryBudget)
        charges.hold(composer.heldByteCount)
        buffer = FrameBuffer(byteLimit: policy.bufferByteLimit, charges: charges)
        // Spaced from the start so that the snapshots of the whole animation fit: no
        // snapshot is taken only to be dropped.
        var interval = max(1, policy.snapshotInterval)
        while interval < frameCount, (frameCount / interval) * max(1, frameBytes) > snapshotByteLimit {
            interval *= 2
        }
        self.interval = interval
    }

    /// The bytes kept: frames in the buffer and snapshots.
    var byteCount: Int { buffer.byteCount + snapshotBytes }
    /// The bytes charged to the budget: the canvas and what is kept (0 without a budget).
    var chargedByteCount: Int { charges.bytes }

    /// Frame `index`, from the buffer or composed.
    func frame(at index: Int) throws(ImageDecodingError) -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) of \(frameCount)")
        if let kept = buffer.frame(at: index) { return kept }
        try moveBefore(index)
        while true {
            let next = composer.position
            if next > 0, next % interval == 0, snapshots[next] == nil, !composer.startsClean(next) {
                keepSnapshot(at: next)
            }
            positionIsSound = false
            guard next == index else {
                try composer.skipNext()
                positionIsSound = true
                decodes += 1
                continue
            }
            let frame = try composer.composeNext()
            positionIsSound = true
            decodes += 1
            let finished = try finish?(frame) ?? frame
            buffer.insert(finished, at: index)
            return finished
        }
    }

    /// Puts the reader at the nearest state at or before frame `index`.
    private func moveBefore(_ index: Int) throws(ImageDecodingError) {
        let current = positionIsSound && composer.position <= index ? composer.position : -1
        var snapshot = -1
        for key in snapshots.keys where key <= index && key > snapshot { snapshot = key }
        var clean = index
        while clean > 0, clean > max(current, snapshot), !composer.startsClean(clean) { clean -= 1 }
        if clean > 0 && !composer.startsClean(clean) { clean = -1 }
        // Ties go to the cheaper move: staying, then a cleared canvas, then a copy.
        if current >= 0 && current >= max(clean, snapshot) { return }
        if clean >= snapshot {
            try composer.restart(at: clean)
        } else if let state = snapshots[snapshot] {
            try composer.restore(state)
        }
        positionIsSound = true
    }

    private func keepSnapshot(at index: Int) {
        guard let state = composer.checkpoint() else { return }
        let bytes = composer.byteCount(of: state)
        while snapshotBytes + bytes > snapshotByteLimit, !snapshots.isEmpty {
            thin()
        }
        guard snapshotBytes + bytes <= snapshotByteLimit, index % interval == 0, charges.keep(bytes) else { return }
        snapshots[index] = state
        snapshotBytes += bytes
    }

    /// Doubles the interval and drops the snapshots off it.
    private func thin() {
        interval *= 2
        for (key, state) in snapshots where key % interval != 0 {
            snapshotBytes -= composer.byteCount(of: state)
            charges.refund(composer.byteCount(of: state))
            snapshots[key] = nil
        }
    }
}
