import Foundation

/// Makes an encoded image straight from a source file, where a codec can do so without
/// the decoded RGBA pixels in between: a JPEG thumbnail of a JPEG, resampled in YCbCr
/// (`JPEGThumbnailTranscoder` in WebImageEncoding).
///
/// The Manager asks its transcoders when a load is wanted encoded, before it decodes the
/// source; a transcoder that declines leaves the load to decode and encode.
public protocol ImageTranscoding: Sendable {
    /// `source` as decoding it with `options` and writing the image with `encoder`
    /// gives it: the same size, orientation and colours, the encoder's format and
    /// settings. `nil` when this transcoder cannot make exactly that (another format,
    /// options or encoder settings it does not follow, a file it declines): the caller
    /// then decodes and encodes.
    ///
    /// Never throws and never traps on bad bytes: a damaged file is a `nil`, and the
    /// decode that follows reports it. Blocks its thread for the work.
    func transcode(_ source: Data, options: DecodeOptions, encoder: any ImageEncoding) -> TranscodedImage?
}

/// What an ``ImageTranscoding`` made: the encoded file and its size.
public struct TranscodedImage: Sendable, Hashable {
    /// The encoded file.
    public var data: Data
    /// The image's size in pixels.
    public var size: PixelSize
    /// The format written.
    public var format: ImageFormat

    public init(data: Data, size: PixelSize, format: ImageFormat) {
        self.data = data
        self.size = size
        self.format = format
    }
}
