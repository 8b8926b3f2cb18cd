internal import CLibAVIF
import Foundation
import WebImageCore
import WebImageDecoding

/// Decodes AVIF on libavif (with dav1d behind it in Debian's build): stills, with
/// alpha, 8 to 12 bits, and image sequences.
///
/// Register it to read AVIF wherever the library decodes (the `WebImage` umbrella's
/// default registry already has it):
///
/// ```swift
/// var registry = ImageDecoderRegistry.standard
/// registry.register(AVIFDecoder())
/// let image = try registry.decode(data)
/// ```
///
/// Pixels are 8-bit RGBA with straight alpha (255 where the file has no alpha), or gray
/// as `DecodeOptions.pixelFormat` asks; 10- and 12-bit files are rescaled to 8 bits.
/// The colour space is read, not applied (the decoder registry converts): the ICC
/// profile of a `colr` box, or else the code points of an `nclx` box, made into a
/// profile (`CICP.colorProfile()`; sRGB and BT.709 need none).
///
/// The clean aperture (`clap`) crops the picture; rotation (`irot`) and mirror
/// (`imir`) become `DecodedImage.orientation`, applied when
/// `DecodeOptions.appliesOrientation` is set, as an EXIF orientation is for JPEG.
/// EXIF inside an AVIF is ignored, as browsers do.
///
/// With `DecodeOptions.maxPixelSize`, the AV1 picture is decoded whole (AV1 has no
/// scaled decode) and converted to RGBA in bands of 16 rows that are scaled down as
/// they come: the full-size RGBA never exists.
///
/// Image sequences: each frame is whole (no composition). `ImageFrame.storedDelay` is
/// the sample's duration to the millisecond; `ImageFrame.duration` follows the browser
/// rule for tiny delays, as for GIF. libavif 0.11 does not read a sequence's repetition
/// count, so `DecodedImage.loopCount` is 0 (forever). A sequence of one frame is a still.
///
/// Limits, checked from the container before any pixel memory exists: the coded size
/// against `DecodeOptions.maxPixelCount`, and for a sequence the size times the frames
/// (one frame with `DecodeOptions.firstFrameOnly`) and the frame count against
/// `DecodeOptions.maxFrameCount`. Each decode uses one thread.
///
/// Errors: `invalidHeader` for a file that is not AVIF or whose boxes are broken,
/// `truncated` for a file cut short, `corrupt` for damaged AV1 data, `unsupported` for
/// what this libavif cannot read, `tooLarge` and `outOfMemory` as above.
///
/// Thread contract: a stateless value; call it from any thread at once.
public struct AVIFDecoder: AnimatedImageDecoding {
    public init() {}

    public var format: ImageFormat { .avif }

    /// Decodes every frame (or only the first with `DecodeOptions.firstFrameOnly`).
    /// Blocks the calling thread.
    ///
    /// - Throws: `ImageDecodingError` with code `empty`, `invalidHeader`,
    ///   `invalidDimensions`, `tooLarge`, `truncated`, `corrupt`, `unsupported` or
    ///   `outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        let reader = try AVIFFrameReader(data: data, options: options)
        if let onDemand = try Self.decodeOnDemand(data, reader: reader, options: options) { return onDemand }
        return try Self.decodeAll(reader, options: options)
    }

    /// A sequence as its first frame and a frame source, when `options` do not keep it
    /// whole (`FrameBuffering`) and need no frame turned upright; `nil` to decode every
    /// frame.
    static func decodeOnDemand(_ data: Data, reader: AVIFFrameReader, options: DecodeOptions) throws(ImageDecodingError)
        -> DecodedImage?
    {
        let info = reader.info
        let size = options.targetSize(for: info.size)
        guard reader.frameCount > 1, !options.firstFrameOnly, !options.appliesOrientation || info.orientation == .up,
            !options.frameBuffering.decodesWhole(frameCount: reader.frameCount, of: size),
            let first = try reader.nextFrame()
        else { return nil }
        let source = AnimationFrameSource(
            info: info, size: size, loopCount: reader.loopCount, storedDelays: reader.storedDelays, policy: options.frameBuffering
        ) { () throws(ImageDecodingError) -> AVIFFrameReader in
            try AVIFFrameReader(data: data, options: options)
        }
        var image = DecodedImage(
            format: .avif, firstFrame: first, frameSource: source, orientation: info.orientation, sourceSize: info.size)
        if let icc = reader.iccProfile { image.attachEmbeddedProfile(icc) }
        return image
    }

    /// Every frame the reader's options ask for, as one image.
    static func decodeAll(_ reader: AVIFFrameReader, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(options.firstFrameOnly ? 1 : reader.frameCount)
        while let frame = try reader.nextFrame() { frames.append(frame) }
        guard !frames.isEmpty else { throw ImageDecodingError(.corrupt, "the AVIF file has no frames", format: .avif) }
        let image = DecodedImage(
            format: .avif, frames: frames, loopCount: reader.loopCount, orientation: reader.info.orientation,
            sourceSize: reader.info.size)
        var finished = try PostProcessing.finish(image, options: options)
        if let icc = reader.iccProfile {
            finished.attachEmbeddedProfile(icc)
        } else {
            finished.attachStatedColorSpace(reader.cicp, in: "AVIF nclx")
        }
        return finished
    }

    /// A reader that decodes one frame per call; a still gives one frame.
    ///
    /// - Throws: `ImageDecodingError` when the container is bad or over the limits.
    public func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading {
        try AVIFFrameReader(data: data, options: options)
    }

    /// An incremental decoder: it learns the size once the container's header boxes
    /// have arrived (and refuses an image over the limits then), and decodes when the
    /// data ends. AV1 stills have no partial images.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        AVIFIncrementalDecoder(options: options)
    }

    /// The container's size as shown (before orientation), its orientation and its
    /// frames; no AV1 data is decoded. A size past libavif's own size limits is refused
    /// here with `tooLarge`, as the decode would be.
    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        try data.withBytes { (bytes) throws(ImageDecodingError) -> ImageHeader in
            Self.header(of: try AVIFSession(bytes: bytes, options: Self.unlimited, readsExif: true))
        }
    }

    /// The options a header read parses with: no limit, the caller's to apply.
    private static let unlimited = DecodeOptions(maxPixelCount: .max, maxFrameCount: .max)

    /// ``readHeader(_:)``'s facts from a parsed container.
    private static func header(of session: AVIFSession) -> ImageHeader {
        // The orientation is the `irot` and `imir` boxes', which AVIF's viewers apply;
        // the Exif item is read for its other fields.
        ImageHeader(
            info: ImageInfo(format: .avif, size: session.displaySize, orientation: session.transform.orientation),
            frameCount: max(1, session.frameCount), exif: session.exif)
    }

    /// Parses the container once (libavif's parse, no limit), for ``readHeader(_:)``'s
    /// facts and for the first decode prepared from it, which checks its own limits on
    /// that parse; a further decode parses again. The survey holds a copy of the
    /// compressed file until that first decode runs or the survey is dropped.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        let file = AVIFFileCopy(data)
        let session = try AVIFSession(bytes: file.bytes, options: Self.unlimited, keepingAlive: file, readsExif: true)
        let header = Self.header(of: session)
        let unused = AVIFSurveyedSession(session)
        return SurveyedImageSource(header: header) { options in
            guard let session = unused.take() else { return prepareDecode(data, options: options) }
            do throws(ImageDecodingError) {
                try session.checkLimits(options)
            } catch {
                return prepareDecode(data, options: options, opened: .failure(error))
            }
            return prepareDecode(data, options: options, opened: .success(AVIFFrameReader(session: session, options: options)))
        }
    }

    /// The output's bytes (every frame kept) and libavif's planes for one frame, read
    /// from the container; `nil` when it cannot be read.
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        try? data.withBytes { (bytes) throws(ImageDecodingError) -> Int in
            Self.estimatedMemory(of: try AVIFSession(bytes: bytes, options: options), options: options)
        }
    }

    /// The estimate from a parsed container.
    static func estimatedMemory(of session: AVIFSession, options: DecodeOptions) -> Int {
        var frames = options.firstFrameOnly ? 1 : session.frameCount
        let target = options.targetSize(for: session.displaySize)
        // Composed on demand: the decode makes the first frame only.
        if !options.appliesOrientation, !options.frameBuffering.decodesWhole(frameCount: frames, of: target) { frames = 1 }
        return target.pixelCount * 4 * frames + session.codedSize.pixelCount * 3
    }

    /// Parses the container once (libavif's parse, with the limits checked) into the
    /// frame reader the decode runs, and reads the estimate from it; the estimate and the
    /// decode otherwise each parse it. The reader holds a copy of the compressed file
    /// until the decode runs or the prepared decode is dropped.
    public func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        prepareDecode(
            data, options: options, opened: Result { () throws(ImageDecodingError) in try AVIFFrameReader(data: data, options: options) })
    }

    /// The prepared decode from the reader opened for `options` (or the error opening it
    /// gave).
    private func prepareDecode(
        _ data: Data, options: DecodeOptions, opened: sending Result<AVIFFrameReader, ImageDecodingError>
    ) -> PreparedImageDecode {
        switch opened {
        case .failure(let error):
            // The decode's first step is this same parse: it throws this error.
            return PreparedImageDecode(format: .avif) {
                nil
            } decode: { () throws(ImageDecodingError) -> DecodedImage in
                throw error
            }
        case .success(let reader):
            let estimate = reader.estimatedMemory
            let unread = AVIFPreparedReader(reader)
            return PreparedImageDecode(format: .avif) {
                estimate
            } decode: { () throws(ImageDecodingError) -> DecodedImage in
                // The parsed reader for the first decode; a further decode parses again.
                if let image = try unread.decodeOnce(data, options: options) { return image }
                return try self.decode(data, options: options)
            }
        }
    }
}
