import WebImageCore

/// A frame reader that can be put back to an earlier state: what a frame source needs
/// from a format to reach any frame without walking from the first.
///
/// Two ways in: ``restart(at:)`` at a frame that starts clean (drawn on a cleared
/// canvas, so no earlier frame matters; the first frame always does), and
/// ``restore(_:)`` of a ``Checkpoint`` taken before some frame. A format that cannot
/// keep its state returns `nil` from ``checkpoint()`` and is only ever restarted.
///
/// Not `Sendable`: the frame source calls it under its lock.
package protocol FrameComposing: AnyObject {
    /// The state before a frame: the canvas, and what the previous frame's disposal
    /// will do to it.
    associatedtype Checkpoint

    /// The index of the frame ``composeNext()`` makes.
    var position: Int { get }
    /// The bytes the reader holds while it composes, whatever frame it is at: its canvas
    /// and any other canvas-sized state (a copy kept for a disposal), at their largest.
    var heldByteCount: Int { get }
    /// Whether frame `index` is drawn on a cleared canvas, so ``restart(at:)`` may start there.
    func startsClean(_ index: Int) -> Bool
    /// Goes to frame `index`, which starts clean, with a cleared canvas.
    func restart(at index: Int) throws(ImageDecodingError)
    /// The state before frame ``position``; `nil` when the format keeps none.
    func checkpoint() -> Checkpoint?
    /// The bytes `checkpoint` holds.
    func byteCount(of checkpoint: Checkpoint) -> Int
    /// Goes back to the state `checkpoint` was taken in.
    func restore(_ checkpoint: Checkpoint) throws(ImageDecodingError)
    /// Composes frame ``position`` and moves to the next one: one frame decode.
    func composeNext() throws(ImageDecodingError) -> ImageFrame
    /// Composes frame ``position`` on the canvas without making its bitmap, and moves
    /// to the next one: how a seek passes the frames before the one asked for, at the
    /// cost of decoding the frame's own rectangle rather than copying out the canvas.
    func skipNext() throws(ImageDecodingError)
}

extension FrameComposing {
    /// A format whose frames cannot be drawn without being made makes and drops them.
    package func skipNext() throws(ImageDecodingError) {
        _ = try composeNext()
    }
}
