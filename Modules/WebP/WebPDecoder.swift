import Foundation
import WebImageCore
import WebImageDecoding

/// Decodes WebP on libwebp: lossy, lossless, with alpha, and animated.
///
/// Register it to read WebP wherever the library decodes (the `WebImage` umbrella's
/// default registry already has it):
///
/// ```swift
/// var registry = ImageDecoderRegistry.standard
/// registry.register(WebPDecoder())
/// let image = try registry.decode(data)
/// ```
///
/// Stills are decoded straight into the returned bitmap. With
/// `DecodeOptions.maxPixelSize`, libwebp scales while it decodes, so a thumbnail never
/// holds the full-size picture (it still decodes every macroblock: a scaled decode
/// takes about as long as a full one, and saves memory, not time).
///
/// Animations are composed by libwebp's animation decoder (disposal and blending
/// applied; every frame is the full canvas). `ImageFrame.storedDelay` is the frame's
/// duration as written, in milliseconds; `ImageFrame.duration` follows the browser rule
/// for tiny delays, as for GIF (10 ms or less plays as 100 ms). `DecodedImage.loopCount`
/// is the file's loop count: 0 loops forever. An animated file of one frame is a still.
/// An animation whose frames take more than `FrameBuffering.eagerByteLimit` decodes its
/// first frame and carries a frame source (`DecodedImage.frameSource`) that composes
/// the others when asked, with the same pixels, on a reader of the library's own
/// (libwebp's animation decoder cannot go back).
///
/// Orientation: read from the EXIF chunk of an extended (`VP8X`) file, applied when
/// `DecodeOptions.appliesOrientation` is set. Pixels are RGBA with straight alpha (an
/// opaque file gets alpha 255), or gray as `DecodeOptions.pixelFormat` asks.
///
/// Limits, checked from the headers before any pixel memory exists: the image (or
/// canvas) against `DecodeOptions.maxPixelCount`; for an animation, also the canvas
/// times its frames (one frame with `DecodeOptions.firstFrameOnly`), and the frame
/// count against `DecodeOptions.maxFrameCount`. libwebp itself refuses sides over
/// 16,383 pixels.
///
/// Errors: `truncated` for a file cut short, `invalidHeader` for a header libwebp
/// refuses, `corrupt` for damaged image data, `unsupported` for a feature libwebp does
/// not read, `tooLarge` and `outOfMemory` as above.
///
/// Thread contract: a stateless value; call it from any thread at once.
public struct WebPDecoder: AnimatedImageDecoding {
    public init() {}

    public var format: ImageFormat { .webp }

    /// Decodes every frame (or only the first with `DecodeOptions.firstFrameOnly`),
    /// each scaled and converted as `options` ask. Blocks the calling thread.
    ///
    /// - Throws: `ImageDecodingError` with code `empty`, `invalidHeader`,
    ///   `invalidDimensions`, `tooLarge`, `truncated`, `corrupt`, `unsupported` or
    ///   `outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: options, parsed: Self.headerAndOrientation(data))
    }

    /// Decodes from the header and orientation already read, as a prepared decode hands
    /// them over (see ``prepareDecode(_:options:)``).
    func decode(
        _ data: Data, options: DecodeOptions, parsed: (header: WebPHeader, orientation: ImageOrientation)
    ) throws(ImageDecodingError) -> DecodedImage {
        let (header, orientation) = parsed
        if header.isAnimated {
            if let onDemand = try Self.decodeOnDemand(data, header: header, orientation: orientation, options: options) {
                return onDemand
            }
            let reader = try WebPFrameReader(data: data, header: header, orientation: orientation, options: options)
            var frames: [ImageFrame] = []
            frames.reserveCapacity(options.firstFrameOnly ? 1 : reader.frameCount)
            while let frame = try reader.nextFrame() { frames.append(frame) }
            guard !frames.isEmpty else { throw ImageDecodingError(.corrupt, "the WebP animation has no frames", format: .webp) }
            var image = try PostProcessing.finish(
                DecodedImage(format: .webp, frames: frames, loopCount: reader.loopCount, orientation: orientation, sourceSize: header.size),
                options: options)
            Self.describeColor(of: data, header: header, in: &image)
            return image
        }
        try options.checkPixelCount(header.size.pixelCount, "the WebP image \(header.size)")
        let bitmap = try data.withBytes { (bytes) throws(ImageDecodingError) in
            try WebPStillDecode.decode(bytes, header: header, target: options.targetSize(for: header.size))
        }
        let (shown, shownOrientation) = try PostProcessing.finish(bitmap, options: options, orientation: orientation)
        var image = DecodedImage(format: .webp, frames: [ImageFrame(bitmap: shown)], orientation: shownOrientation, sourceSize: header.size)
        Self.describeColor(of: data, header: header, in: &image)
        return image
    }

    /// An animation as its first frame and a frame source, when `options` do not keep it
    /// whole (`FrameBuffering`) and need no frame turned upright; `nil` to decode every
    /// frame.
    static func decodeOnDemand(
        _ data: Data, header: WebPHeader, orientation: ImageOrientation, options: DecodeOptions
    ) throws(ImageDecodingError) -> DecodedImage? {
        let size = options.targetSize(for: header.size)
        guard !options.firstFrameOnly, !options.appliesOrientation || orientation == .up,
            let frameCount = WebPHeader.frameCount(data), frameCount > 1,
            !options.frameBuffering.decodesWhole(frameCount: frameCount, of: size)
        else { return nil }
        let composer = try WebPFrameComposer(data: data, header: header, orientation: orientation, options: options)
        guard composer.frameCount > 1 else { return nil }
        let first = try composer.composeNext()
        let source = AnimationFrameSource(
            info: composer.info, size: size, loopCount: composer.loopCount, storedDelays: composer.storedDelays,
            policy: options.frameBuffering
        ) { () throws(ImageDecodingError) -> WebPFrameComposer in
            try WebPFrameComposer(data: data, header: header, orientation: orientation, options: options)
        }
        var image = DecodedImage(format: .webp, firstFrame: first, frameSource: source, orientation: orientation, sourceSize: header.size)
        describeColor(of: data, header: header, in: &image)
        return image
    }

    /// Attaches the profile of the `ICCP` chunk the `VP8X` flags announce.
    private static func describeColor(of data: Data, header: WebPHeader, in image: inout DecodedImage) {
        guard header.hasICC else { return }
        if let icc = WebPMetadata.iccProfile(data) {
            image.attachEmbeddedProfile(icc)
        } else {
            image.ignoreEmbeddedProfile(because: "the VP8X flags announce an ICCP chunk the file does not hold")
        }
    }

    /// A reader that composes one frame per call; a still file gives one frame.
    ///
    /// - Throws: `ImageDecodingError` when the header is bad or the animation is over
    ///   the limits.
    public func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading {
        let (header, orientation) = try Self.headerAndOrientation(data)
        if header.isAnimated {
            return try WebPFrameReader(data: data, header: header, orientation: orientation, options: options)
        }
        return StillImageFrameReader(image: try decode(data, options: options))
    }

    /// An incremental decoder: a still file shows the rows decoded so far
    /// (`WebPIDecoder`); an animation is decoded whole when the data ends.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        WebPIncrementalDecoder(options: options)
    }

    /// The output's bytes (for an animation: every frame kept, and libwebp's two
    /// canvases), read from the headers; `nil` when they cannot be read.
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        guard let header = try? data.withBytes({ (bytes) throws(ImageDecodingError) in try WebPHeader(bytes) }) else {
            return nil
        }
        return Self.estimatedMemory(decoding: data, header: header, options: options)
    }

    /// Reads the header (and the EXIF orientation) once, for the estimate and for the
    /// decode, which otherwise both ask libwebp for it.
    public func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        prepareDecode(data, options: options, parsed: Result { () throws(ImageDecodingError) in try Self.headerAndOrientation(data) })
    }

    /// The prepared decode from the header read (or the error reading it gave).
    private func prepareDecode(
        _ data: Data, options: DecodeOptions, parsed: Result<(WebPHeader, ImageOrientation), ImageDecodingError>
    ) -> PreparedImageDecode {
        PreparedImageDecode(format: .webp) {
            guard case .success(let (header, _)) = parsed else { return nil }
            return Self.estimatedMemory(decoding: data, header: header, options: options)
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            // A header that did not read throws what the decode's own read would.
            try self.decode(data, options: options, parsed: parsed.get())
        }
    }

    /// Reads the header (and the EXIF orientation) once, for ``readHeader(_:)``'s facts
    /// and for each decode prepared from it.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        let parsed = try Self.headerAndOrientation(data)
        return SurveyedImageSource(header: Self.header(of: data, parsed: parsed)) { options in
            prepareDecode(data, options: options, parsed: .success(parsed))
        }
    }

    /// The estimate from a header already read.
    static func estimatedMemory(decoding data: Data, header: WebPHeader, options: DecodeOptions) -> Int {
        let output = options.targetSize(for: header.size).pixelCount * 4
        guard header.isAnimated else { return output }
        var frames = options.firstFrameOnly ? 1 : (WebPHeader.frameCount(data) ?? 1)
        // Composed on demand: the decode makes the first frame only.
        if !options.appliesOrientation || !header.hasEXIF || data.withUnsafeBytes({ WebPMetadata.orientation($0) }) == .up,
            !options.frameBuffering.decodesWhole(frameCount: frames, of: options.targetSize(for: header.size))
        {
            frames = 1
        }
        return output * frames + header.size.pixelCount * 4 * 2
    }

    /// The canvas, the EXIF block and its orientation and, for an animation, the frames
    /// (from the chunk list).
    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        Self.header(of: data, parsed: try Self.headerAndOrientation(data))
    }

    /// ``readHeader(_:)``'s facts from the header read.
    private static func header(of data: Data, parsed: (header: WebPHeader, orientation: ImageOrientation)) -> ImageHeader {
        let (header, orientation) = parsed
        let frames = header.isAnimated ? (WebPHeader.frameCount(data) ?? 1) : 1
        let exif = header.hasEXIF ? data.withUnsafeBytes { WebPMetadata.exif($0) } : nil
        return ImageHeader(
            info: ImageInfo(format: .webp, size: header.size, orientation: orientation), frameCount: max(1, frames), exif: exif)
    }

    /// The header facts and the EXIF orientation.
    static func headerAndOrientation(_ data: Data) throws(ImageDecodingError) -> (WebPHeader, ImageOrientation) {
        try data.withBytes { (bytes) throws(ImageDecodingError) in
            let header = try WebPHeader(bytes)
            return (header, header.hasEXIF ? WebPMetadata.orientation(bytes) : .up)
        }
    }
}
