import Foundation
import WebImageCore

/// Decodes GIF, still and animated, on giflib.
///
/// Frames are composed on the logical screen the way browsers do it: the canvas starts
/// fully transparent and the background colour index is ignored; each frame is clipped
/// to the screen; pixels equal to the frame's transparent index are not drawn; a local
/// colour table wins over the global one; an index outside the active table (or any
/// index when there is no table) is opaque black. Disposal 0 and 1 leave the frame in
/// place, 2 clears its rectangle to transparent, 3 restores what the rectangle held
/// before the frame. Pixels are RGBA with straight alpha.
///
/// Timing: `ImageFrame.storedDelay` is the graphics control delay as written
/// (hundredths of a second); `ImageFrame.duration` follows the browser rule, so a
/// delay of 0 or 10 ms (very common) plays as 100 ms. A file with a single frame is a
/// still: its duration is zero. `DecodedImage.loopCount` comes from the first
/// NETSCAPE2.0 (or ANIMEXTS1.0) application extension, stored as is: 0 loops forever,
/// and a file without one plays once (1).
///
/// Colour: the ICC profile of an ICCRGBG1012 application extension before the first
/// frame is read (4 MiB at most) and attached as `DecodedImage.colorProfile`, for the
/// decoder registry to convert, as for the other formats.
///
/// Limits: a zero-sized screen is `ImageDecodingError.Code.invalidDimensions`. Before
/// the canvas exists, every frame rectangle (unclipped) and frames x screen pixels (one
/// frame with `DecodeOptions.firstFrameOnly`) are checked against
/// `DecodeOptions.maxPixelCount`, and the frame count against
/// `DecodeOptions.maxFrameCount` (10,000 by default).
///
/// Truncation: if the data ends after the last frame's pixels (the trailer or a block
/// terminator is missing) the image decodes; if it ends inside a frame, ``decode(_:options:)``
/// throws `ImageDecodingError.Code.truncated` even though earlier frames were whole
/// (``makeFrameReader(for:options:)`` yields them first). Damaged LZW data is
/// `ImageDecodingError.Code.corrupt`.
///
/// Long animations: when the frames would take more than
/// `FrameBuffering.eagerByteLimit` (`DecodeOptions.frameBuffering`), ``decode(_:options:)``
/// decodes the first frame and returns a frame source (`DecodedImage.frameSource`) that
/// composes the others on demand; damage or truncation past the first frame is then
/// thrown by the frames that need it. See the article "Animations on demand".
///
/// ```swift
/// let reader = try GIFDecoder().makeFrameReader(for: data, options: .default)
/// while let frame = try reader.nextFrame() { show(frame.bitmap, for: frame.duration) }
/// ```
///
/// Thread contract: a stateless value; call it from any thread at once.
public struct GIFDecoder: AnimatedImageDecoding {
    public init() {}

    public var format: ImageFormat { .gif }

    /// Decodes every frame (or only the first with `DecodeOptions.firstFrameOnly`),
    /// each scaled and converted as `options` ask.
    ///
    /// Blocks the calling thread for the decode.
    ///
    /// - Throws: `ImageDecodingError` with code `empty`, `invalidHeader`,
    ///   `invalidDimensions`, `tooLarge`, `truncated`, `corrupt` or `outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: options, surveyed: nil)
    }

    /// Decodes with the survey a prepared decode made (see `prepareDecode(_:options:)`),
    /// or surveys the frames first.
    func decode(_ data: Data, options: DecodeOptions, surveyed: GIFSurvey.OfScreen?) throws(ImageDecodingError) -> DecodedImage {
        let reader = try GIFFrameReader(data: data, options: options, surveyed: surveyed)
        if let onDemand = try Self.decodeOnDemand(data, reader: reader, options: options) { return onDemand }
        var frames: [ImageFrame] = []
        frames.reserveCapacity(reader.expectedFrameCount)
        while let frame = try reader.nextFrame() {
            frames.append(frame)
        }
        var image = DecodedImage(
            format: .gif, frames: frames, loopCount: reader.loopCount,
            orientation: .up, sourceSize: reader.info.size
        )
        if let icc = reader.iccProfile { image.attachEmbeddedProfile(icc) }
        return image
    }

    /// The animation as its first frame and a frame source, when `options` do not keep
    /// it whole (``FrameBuffering``); `nil` to decode every frame.
    private static func decodeOnDemand(_ data: Data, reader: GIFFrameReader, options: DecodeOptions) throws(ImageDecodingError)
        -> DecodedImage?
    {
        let survey = reader.survey
        let size = options.targetSize(for: reader.info.size)
        // A survey stopped by damage counts a frame it could not describe: the eager
        // decode reports that damage where it is.
        guard reader.isAnimated, !options.firstFrameOnly, survey.frames.count == survey.frameCount,
            !options.frameBuffering.decodesWhole(frameCount: survey.frameCount, of: size)
        else { return nil }
        guard let first = try reader.nextFrame() else { return nil }
        let surveyed = GIFSurvey.OfScreen(screen: reader.info.size, survey: survey)
        let source = AnimationFrameSource(
            info: reader.info, size: size, loopCount: reader.loopCount,
            storedDelays: survey.frames.map { .milliseconds($0.delayHundredths * 10) }, policy: options.frameBuffering
        ) { () throws(ImageDecodingError) -> GIFFrameReader in
            try GIFFrameReader(data: data, options: options, surveyed: surveyed)
        }
        return DecodedImage(format: .gif, firstFrame: first, frameSource: source, orientation: .up, sourceSize: reader.info.size)
    }

    /// A reader that composes one frame per call, holding only the compressed data, the
    /// canvas and the disposal-3 backup; each frame it returns is a copy.
    ///
    /// The returned reader is not `Sendable`; the frames are.
    ///
    /// - Throws: `ImageDecodingError` when the header is bad, the screen is zero-sized,
    ///   or a frame (or all frames together) is over `DecodeOptions.maxPixelCount`.
    public func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading {
        try GIFFrameReader(data: data, options: options)
    }

    /// An incremental decoder whose partial images show the first frame with the rows
    /// received so far; `IncrementalImageDecoding.finish()` decodes the whole animation.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        GIFIncrementalDecoder(options: options)
    }
}
