import Foundation

/// An encoder that also writes animations: every frame of a ``DecodedImage``, with its
/// delay and the loop count.
///
/// An implementation walks the frames with ``DecodedImage/forEachFrame(_:)``: frame by
/// frame, holding one composed frame (and its own working state) at a time, so that an
/// animation composed on demand is never held whole while it is written.
///
/// Thread contract: a value; `encodeAnimation` may run on any thread, at once on several.
public protocol AnimatedImageEncoding: ImageEncoding {
    /// The bytes of an animated file holding every frame of `image`, each shown for its
    /// ``ImageFrame/storedDelay``, played ``DecodedImage/loopCount`` times (0 forever).
    /// A still image gives a one-frame file.
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``, or the frame source's error
    ///   when a frame is damaged.
    func encodeAnimation(_ image: DecodedImage) throws(ImageDecodingError) -> Data
}

/// Which frames of an image an encode writes.
public enum EncodedFrames: Sendable, Hashable {
    /// Every frame, when the encoder writes animations (``AnimatedImageEncoding``); the
    /// first frame when it writes stills only (JPEG, PNG).
    case all
    /// The first frame only, as a still, whatever the encoder can write: a still from an
    /// animated source.
    case firstOnly
}

extension ImageEncoding {
    /// The bytes of a file holding `image`: an animation when `image` has more than one
    /// frame, `frames` is ``EncodedFrames/all`` and this encoder writes animations;
    /// otherwise a still of the first frame (an encoder of a still-only format, such as
    /// JPEG or PNG, always writes the first frame).
    ///
    /// ```swift
    /// let animated = try WebPEncoder().encode(decodedGIF)
    /// let poster = try WebPEncoder().encode(decodedGIF, frames: .firstOnly)
    /// ```
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``, or the frame source's error
    ///   when a frame is damaged.
    public func encode(_ image: DecodedImage, frames: EncodedFrames = .all) throws(ImageDecodingError) -> Data {
        if frames == .all, image.isAnimated, let animated = self as? any AnimatedImageEncoding {
            return try animated.encodeAnimation(image)
        }
        return try encode(image.bitmap)
    }
}
