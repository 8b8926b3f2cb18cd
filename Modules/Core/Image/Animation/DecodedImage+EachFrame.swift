extension DecodedImage {
    /// Calls `body` with every frame in order, holding one at a time when the frames are
    /// composed on demand: what an encoder writing an animation frame by frame needs.
    ///
    /// Frames from a ``frameSource`` come from a frame reader of this call's own (see
    /// ``ImageFrameSource/makeFrameReader()``), so the source's frame buffer is not
    /// filled; one frame decode per frame.
    ///
    /// - Throws: ``ImageDecodingError`` from the frame source when a frame is damaged,
    ///   or what `body` throws; either ends the walk.
    public func forEachFrame(_ body: (Int, ImageFrame) throws(ImageDecodingError) -> Void) throws(ImageDecodingError) {
        guard let source = frameSource else {
            for (index, frame) in frames.enumerated() { try body(index, frame) }
            return
        }
        let reader = try source.makeFrameReader()
        for index in 0..<source.frameCount {
            guard let frame = try reader.nextFrame() else {
                throw ImageDecodingError(.truncated, "the animation ends after \(index) of \(source.frameCount) frames", format: format)
            }
            try body(index, frame)
        }
    }
}
