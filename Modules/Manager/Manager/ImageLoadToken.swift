import WebImageCore

/// Cancels, pauses and resumes one load. Safe from any thread, any number of times.
///
/// Cancelling completes the load with ``ImageLoadError/cancelled`` at once (unless it
/// already completed); it gets nothing more.
///
/// Pausing says this load can wait for its download. Loads of one resource share one
/// transfer (coalescing), so the rule is: the transfer pauses once every load still
/// waiting for it has paused, and resumes as soon as one of them resumes, or a new load
/// of the resource joins without pausing. One load's pause never stops the bytes another
/// load is waiting for. A paused transfer keeps what it received: resumed, it goes on
/// from there, every byte once; its paused time counts against none of its timeouts
/// (the whole-transfer timeout is extended by it). A download paused before it got a
/// slot in the downloader's queue leaves the queue until resumed, so it holds up no
/// other download. The subscribers of the paused download hear of it through the
/// downloader's event monitors (`downloadDidPause`, `downloadDidResume`). Pausing a load
/// answered from a cache, or one that has ended, does nothing; cancelling works while
/// paused.
public final class ImageLoadToken: Cancellable, CustomStringConvertible {
    /// The shared work this load joined; `nil` for a load answered at once (a memory hit
    /// or a recent failure), for which cancelling does nothing.
    public let key: ImageLoadKey?
    private let onCancel: (@Sendable (_ keepingResumableData: Bool) -> Void)?
    private let onPauseChange: (@Sendable (_ paused: Bool) -> Void)?

    init(
        key: ImageLoadKey?, onCancel: (@Sendable (_ keepingResumableData: Bool) -> Void)?,
        onPauseChange: (@Sendable (_ paused: Bool) -> Void)? = nil
    ) {
        self.key = key
        self.onCancel = onCancel
        self.onPauseChange = onPauseChange
    }

    public func cancel() { onCancel?(false) }

    /// ``cancel()``, and when that stops the download (no other load waits for it), asks
    /// the downloader to keep what it received, so that the next load of the resource
    /// asks only for the rest. With `false`, the same as ``cancel()``. It is a wish: a
    /// downloader without a partial-download store, a response without a strong
    /// validator, or a load not downloading yet keep nothing.
    public func cancel(keepingResumableData: Bool) { onCancel?(keepingResumableData) }

    /// Pauses this load's download, under the rule above.
    public func pause() { onPauseChange?(true) }

    /// Withdraws this load's ``pause()``: its download resumes, if it was paused.
    public func resume() { onPauseChange?(false) }

    public var description: String { "ImageLoadToken(\(key?.description ?? "answered at once"))" }
}
