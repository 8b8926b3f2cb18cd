import WebImageCore
import WebImageDecoding

/// An animated WebP's frames in any order: a key frame is a place to restart, and the
/// canvas the next frame is drawn on is the checkpoint.
extension WebPFrameComposer: FrameComposing {
    /// The canvas before a frame (after the previous one's disposal).
    struct Checkpoint {
        let position: Int
        let canvas: [UInt8]
    }

    /// The canvas a frame is composed on and the one the next is drawn on.
    var heldByteCount: Int { canvasByteCount * 2 }

    func startsClean(_ index: Int) -> Bool { keyFrames[index] }

    func restart(at index: Int) throws(ImageDecodingError) {
        precondition(keyFrames[index], "frame \(index) is not drawn on a cleared canvas")
        position = index
    }

    func checkpoint() -> Checkpoint? {
        Checkpoint(position: position, canvas: Array(UnsafeRawBufferPointer(disposed)))
    }

    func byteCount(of checkpoint: Checkpoint) -> Int { checkpoint.canvas.count }

    func restore(_ checkpoint: Checkpoint) throws(ImageDecodingError) {
        checkpoint.canvas.withUnsafeBytes { disposed.copyMemory(from: $0) }
        position = checkpoint.position
    }
}
