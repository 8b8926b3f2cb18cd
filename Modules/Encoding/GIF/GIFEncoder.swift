import Foundation
import WebImageCore

/// Writes GIF with giflib: stills and animations, each frame with a palette of its own.
///
/// GIF holds at most 256 colours a frame. Each frame gets its own colour table, chosen by
/// median cut over that frame's colours (a frame of 256 colours or fewer keeps them
/// nearly exactly), and each pixel takes its nearest entry, without dithering (a dither
/// pattern that changes from frame to frame shimmers). GIF has no partial transparency:
/// a pixel with alpha under 128 is written transparent (one entry of the table is kept
/// for it, in frames that have such pixels), any other pixel opaque.
///
/// An animation keeps each frame's `ImageFrame.storedDelay` rounded to the nearest
/// hundredth of a second (GIF's unit; half a hundredth rounds up), at most 655.35 s, and
/// the loop count as a NETSCAPE2.0 extension (none for an image played once, the
/// convention without one). Every frame is the full canvas, cleared before the next.
///
/// ```swift
/// let gif = try GIFEncoder().encodeAnimation(decodedWebP)
/// ```
///
/// Thread contract: a value; `encode` may run on any thread, at once on several.
public struct GIFEncoder: AnimatedImageEncoding {
    public var format: ImageFormat { .gif }

    public init() {}

    /// The bytes of a GIF holding `bitmap` as a still.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed` for an empty bitmap, a side
    ///   over 65,535 (GIF's limit), or when giflib fails.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        try write(size: bitmap.size, loopCount: 1) { (frame) throws(ImageDecodingError) in
            try frame(ImageFrame(bitmap: bitmap))
        }
    }

    /// An animated GIF of `image`'s frames (all the canvas size), written frame by frame:
    /// one composed frame, its indices and the file so far are held at a time.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed`, or the frame source's error
    ///   when a frame is damaged.
    public func encodeAnimation(_ image: DecodedImage) throws(ImageDecodingError) -> Data {
        try write(size: image.size, loopCount: image.loopCount) { (frame) throws(ImageDecodingError) in
            try image.forEachFrame { (_, each) throws(ImageDecodingError) in try frame(each) }
        }
    }

    /// A frame's delay in hundredths of a second, as written: `delay` rounded to the
    /// nearest (half up), within 0...65,535.
    public static func centiseconds(of delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        guard seconds < 656 else { return 65_535 }
        let hundredths = Int(seconds) * 100 + Int((attoseconds + 5_000_000_000_000_000) / 10_000_000_000_000_000)
        return min(65_535, hundredths)
    }

    private func write(
        size: PixelSize, loopCount: Int,
        frames: ((ImageFrame) throws(ImageDecodingError) -> Void) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) -> Data {
        guard size.width > 0, size.height > 0, size.width <= 65_535, size.height <= 65_535 else {
            throw ImageDecodingError(.encodingFailed, "GIF cannot hold a \(size.width)x\(size.height) image", format: .gif)
        }
        let (pixelCount, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow else { throw ImageDecodingError(.encodingFailed, "a \(size) image is too large", format: .gif) }
        let writer = try GIFFileWriter(width: size.width, height: size.height)
        let palette = MedianCutPalette()
        let indices = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: pixelCount)
        defer { indices.deallocate() }
        var frameCount = 0
        try frames { (frame) throws(ImageDecodingError) in
            guard frame.bitmap.size == size else {
                throw ImageDecodingError(.encodingFailed, "a frame of \(frame.bitmap.size) in an animation of \(size)", format: .gif)
            }
            if frameCount == 0, loopCount != 1 { try writer.writeLoopCount(loopCount) }
            frameCount += 1
            palette.quantize(frame.bitmap, into: indices)
            try writer.writeFrame(
                width: size.width, height: size.height, indices: indices, palette: palette.colors,
                transparentIndex: palette.transparentIndex, centiseconds: Self.centiseconds(of: frame.storedDelay))
        }
        return try writer.finish()
    }
}
