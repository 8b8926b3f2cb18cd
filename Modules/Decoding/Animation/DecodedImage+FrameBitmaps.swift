import WebImageCore

extension DecodedImage {
    /// This image with every frame's pixels passed through `change`: the frames it
    /// holds now, and, for an animation composed on demand, each frame as it is composed,
    /// so that the result stays on demand. `size` is the size `change` gives a frame
    /// (`nil`: the same). The one way a transform reaches every frame.
    package func changingFrameBitmaps(
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
