/// The bytes the proxy's memory estimate counts for the encoder of an animated output,
/// beside the frame being decoded and scaled: the encoder keeps what it has written of
/// every frame until the file is whole, so its share grows with the frames processed
/// (at most `max_animation_frames`), unlike the rest of a render.
///
/// For `frames` frames of the output's `pixels`, the sum of:
/// - **Canvases** of the output's size, at 4 bytes a pixel: libwebp's animation encoder
///   keeps the previous canvas, that canvas disposed, a copy of the current frame and up
///   to four candidate encodings of it (a sub-rectangle or the whole, lossy or
///   lossless): 7. The GIF writer holds a frame's palette indices and the quantiser's
///   work: 2.
/// - **Encoded frames**, at ``encodedBytesPerPixel(_:)`` per pixel per frame, held
///   ``copies(_:)`` times at the end: for WebP the frames as encoded, the file libwebp
///   assembles from them and its copy handed back (3); for GIF the file, written into
///   storage that doubles as it grows (2).
///
/// For GIF the encoded frames' count is a bound: an LZW code is at most 12 bits and
/// stands for at least one pixel, so a frame takes at most 1.5 bytes a pixel and its
/// block headers; 2 are counted. Lossy WebP has no such bound; 2 bytes a pixel are
/// counted, above the 1.4 a pan across a photo in small frames takes at quality 100 (every
/// frame changes whole; each has its headers) and far above what the default qualities
/// take. Noise at the highest qualities can pass it: an estimate of the worst ordinary
/// case, as the decode's is.
enum AnimatedEncoderMemory {
    /// Output-sized RGBA canvases `format`'s animation encoder works on.
    static func canvases(_ format: OutputFormat) -> Int { format == .webp ? 7 : 2 }

    /// The bytes an encoded frame is counted at, per output pixel.
    static func encodedBytesPerPixel(_ format: OutputFormat) -> Int { 2 }

    /// How many copies of the encoded frames the encoder holds at its end.
    static func copies(_ format: OutputFormat) -> Int { format == .webp ? 3 : 2 }

    /// The bytes counted for an encoder writing `frames` frames of `pixels` pixels in
    /// `format`; 0 for a still or a format that writes no animation.
    static func bytes(format: OutputFormat, pixels: Int, frames: Int) -> Int {
        guard frames > 1, format.writesAnimations else { return 0 }
        let perPixel = frames.multipliedReportingOverflow(by: encodedBytesPerPixel(format) * copies(format))
        let encoded = pixels.multipliedReportingOverflow(by: perPixel.partialValue)
        let working = pixels.multipliedReportingOverflow(by: canvases(format) * 4)
        guard !perPixel.overflow, !encoded.overflow, !working.overflow else { return .max }
        let (total, overflow) = encoded.partialValue.addingReportingOverflow(working.partialValue)
        return overflow ? .max : total
    }
}
