import WebImageCore

extension DecodedImage {
    /// This image with every frame's pixels passed through `change`, which gives frames
    /// of `size` (`nil`: the size they have). An animation composed on demand stays on
    /// demand: each frame is changed as it is composed, and none is held for it.
    ///
    /// ```swift
    /// let copied = try image.mappingFrameBitmaps(size: nil) { bitmap in try bitmap.copy() }
    /// ```
    ///
    /// `change` may run on any thread, once for each frame held now and once each time a
    /// frame is composed.
    ///
    /// The library's own transformers reach every frame this way.
    ///
    /// - Throws: what `change` throws for a frame held now; for the frames composed
    ///   later, their composition throws it.
    public func mappingFrameBitmaps(
        size: PixelSize?, _ change: @escaping @Sendable (ImageBitmap) throws(ImageDecodingError) -> ImageBitmap
    ) throws(ImageDecodingError) -> DecodedImage {
        var result = self
        for index in result.frames.indices {
            result.frames[index].bitmap = try change(result.frames[index].bitmap)
        }
        // Setting the frames above dropped the source.
        if let source = frameSource as? any FrameFinishing {
            result.frameSource = source.finishingFrames(size: size) { (frame) throws(ImageDecodingError) -> ImageFrame in
                var frame = frame
                frame.bitmap = try change(frame.bitmap)
                return frame
            }
        }
        return result
    }
}
