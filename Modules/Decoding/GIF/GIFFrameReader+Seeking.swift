import WebImageCore

/// A GIF reader put back to an earlier frame: giflib keeps no state between records, so
/// the reader's state before a frame is the byte offset where that frame's records
/// start (from the survey), the canvas, and the previous frame's pending disposal.
extension GIFFrameReader: FrameComposing {
    struct Checkpoint {
        let index: Int
        let canvas: GIFCanvas.Checkpoint
    }

    var position: Int { yielded }

    var heldByteCount: Int { Self.heldByteCount(screen: info.size, survey: survey) }

    /// The canvas, and the copy of the largest on-screen rectangle a frame disposed to
    /// "restore to previous" needs.
    static func heldByteCount(screen: PixelSize, survey: GIFSurvey) -> Int {
        (screen.pixelCount + survey.largestRestoredPixelCount) * 4
    }

    func startsClean(_ index: Int) -> Bool {
        survey.frames[index].startsClean
    }

    func restart(at index: Int) throws(ImageDecodingError) {
        precondition(startsClean(index), "GIF frame \(index) needs the frames before it")
        canvas?.clear()
        move(to: index)
    }

    func checkpoint() -> Checkpoint? {
        guard let canvas, failure == nil, !done else { return nil }
        return Checkpoint(index: yielded, canvas: canvas.checkpoint())
    }

    func byteCount(of checkpoint: Checkpoint) -> Int {
        checkpoint.canvas.byteCount
    }

    func restore(_ checkpoint: Checkpoint) throws(ImageDecodingError) {
        try existingCanvas().restore(checkpoint.canvas)
        move(to: checkpoint.index)
    }

    func composeNext() throws(ImageDecodingError) -> ImageFrame {
        guard let frame = try nextFrame() else {
            throw ImageDecodingError(.truncated, "the data ends before GIF frame \(yielded)", format: .gif)
        }
        return frame
    }

    func skipNext() throws(ImageDecodingError) {
        guard try drawNextFrameOnly() else {
            throw ImageDecodingError(.truncated, "the data ends before GIF frame \(yielded)", format: .gif)
        }
    }

    private func move(to index: Int) {
        file.source.move(to: survey.frames[index].recordsStart)
        yielded = index
        done = false
        failure = nil
    }
}
