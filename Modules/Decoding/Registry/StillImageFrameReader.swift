import WebImageCore

/// The one frame of a still image, for an animated format's `makeFrameReader` on a file
/// that does not animate.
package final class StillImageFrameReader: ImageFrameReading {
    package let info: ImageInfo
    package let loopCount = 1
    package let colorProfile: ColorProfile?
    private var frame: ImageFrame?

    package init(image: DecodedImage) {
        info = ImageInfo(format: image.format, size: image.sourceSize, orientation: image.orientation)
        colorProfile = image.colorProfile
        frame = image.frames.first
    }

    package func nextFrame() throws(ImageDecodingError) -> ImageFrame? {
        defer { frame = nil }
        return frame
    }
}
