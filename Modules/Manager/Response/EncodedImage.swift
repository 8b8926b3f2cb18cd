import Foundation
import WebImageCore

/// A load's image as a file: what ``ImageManager/encodedImage(for:encoder:)`` answers.
public struct EncodedImage: Sendable {
    /// How the file was made.
    public enum Path: Sendable, Hashable {
        /// The decoded image was encoded (after the load's transformers, if any).
        case encoded
        /// A transcoder made it from the source's bytes, with no decoded image
        /// (``ImageManager/Configuration/transcoders``).
        case transcoded
    }

    /// The encoded file.
    public var data: Data
    /// The format written: the encoder's.
    public var format: ImageFormat
    /// The image's size in pixels.
    public var size: PixelSize
    /// Where the image or the source's bytes came from: ``ImageSource/memory`` for a
    /// decoded image the memory cache held.
    public var source: ImageSource
    public var path: Path

    public init(data: Data, format: ImageFormat, size: PixelSize, source: ImageSource, path: Path) {
        self.data = data
        self.format = format
        self.size = size
        self.source = source
        self.path = path
    }
}
