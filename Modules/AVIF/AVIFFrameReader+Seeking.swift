import WebImageCore
import WebImageDecoding

/// An AVIF sequence's frames in any order: a sequence has no canvas (every frame is
/// whole), so any frame is a place to start, and libavif seeks to it from the nearest
/// keyframe (`avifDecoderNthImage`). No checkpoint is kept: libavif keeps its own.
extension AVIFFrameReader: FrameComposing {
    var position: Int { returned }

    /// The frame being converted; libavif's own buffers are its to count.
    var heldByteCount: Int { info.size.pixelCount * 4 }

    func startsClean(_ index: Int) -> Bool { true }

    func restart(at index: Int) throws(ImageDecodingError) {
        seek(to: index)
    }

    /// None: libavif's keyframes are the checkpoints.
    func checkpoint() -> Void? { nil }

    func byteCount(of checkpoint: Void) -> Int { 0 }

    func restore(_ checkpoint: Void) throws(ImageDecodingError) {}

    func composeNext() throws(ImageDecodingError) -> ImageFrame {
        guard let frame = try nextFrame() else {
            throw ImageDecodingError(.truncated, "the AVIF sequence has no frame \(returned)", format: .avif)
        }
        return frame
    }
}
