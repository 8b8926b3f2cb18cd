import Foundation
import WebImageCore

/// Decodes PNG with libpng (every colour type and bit depth, palettes with tRNS,
/// gray with alpha, Adam7 interlacing).
///
/// Output is 8-bit RGBA with straight alpha: palettes and bit depths under 8 are
/// expanded (low-bit gray by bit replication), tRNS becomes alpha, 16-bit samples keep
/// their high byte (through a registry with a colour engine, a 16-bit image is
/// converted before that reduction: still, animated, whole or partial). The decoder applies no gamma correction itself:
/// pixels are as stored; the ICC profile of an `iCCP` chunk (inflated to 4 MiB at most) is attached
/// as `DecodedImage.colorProfile` for the decoder registry to convert, an `sRGB` chunk
/// means sRGB, and without either, `gAMA` and `cHRM` become a profile made from their
/// gamma and chromaticities (none when they describe sRGB), as browsers read them.
/// libpng is handed only the chunks decoding needs (IHDR, PLTE,
/// tRNS, IDAT, IEND and unknown critical chunks, which it refuses): text, ICC and every
/// other ancillary chunk is stepped over unstored, so a zTXt or iCCP decompression
/// bomb, or a million tEXt chunks, cost one pass over their bytes. Work is linear in
/// the input however many chunks it has and however thinly it arrives. A critical
/// chunk other than IDAT over 4 KiB is refused. The EXIF orientation of the first eXIf
/// chunk is exposed (when its CRC is right).
///
/// Animated PNG (APNG) plays as browsers play it: the frames of the `fcTL` and `fdAT`
/// chunks, each a small PNG handed to libpng, composed on the canvas with their dispose
/// and blend operations, starting from transparent black. A default image that comes
/// before the first frame control (IDAT without `fcTL`) is not a frame: it is what
/// decoders without APNG show. So the frame count is the `acTL` count, one less than
/// Pillow's `n_frames` for such files. Frame durations are `delay_num / delay_den`
/// seconds (`ImageFrame.storedDelay`), played with the browser rule for tiny delays
/// (10 ms or less plays as 100 ms); `DecodedImage.loopCount` is `num_plays` (0
/// forever). A file whose animation chunks are wrong in any way (see the chunk rules
/// in the source's `APNGStructure`), or a frame whose data does not decode, gives the
/// still default image instead, as browsers show it. The canvas times the frames is
/// checked against `DecodeOptions.maxPixelCount`, and the frame count against
/// `DecodeOptions.maxFrameCount`, before any frame is decoded.
///
/// An animation of more than `FrameBuffering.eagerByteLimit` bytes of frames decodes its
/// first frame and carries a frame source (`DecodedImage.frameSource`); a frame past the
/// first whose data does not decode is then thrown by the frames that need it, rather
/// than giving the still image. See the article "Animations on demand".
///
/// Thread contract: a value type with no state; decode from any thread.
public struct PNGDecoder: AnimatedImageDecoding {
    public init() {}

    public var format: ImageFormat { .png }

    /// Decodes a whole PNG file.
    ///
    /// - Throws: `ImageDecodingError` with `.invalidHeader` (bad signature, CRC or
    ///   IHDR), `.invalidDimensions` (zero width or height), `.tooLarge` (over
    ///   `DecodeOptions.maxPixelCount`, checked before allocating), `.corrupt`
    ///   (damaged pixel data, a CRC error, a wrong zlib checksum, image data that ends
    ///   before the last row while the file goes on), `.truncated` (the data ends
    ///   before the last row, or inside the last IDAT chunk before its CRC), `.empty`.
    ///   A file that ends after its last IDAT chunk decodes, IEND or not. Bytes after
    ///   IEND are ignored.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .png) }
        return try decode(data, options: options, structure: APNGStructure(data))
    }

    /// Decodes with the chunk list already read (`nil`: no animation chunks), as a
    /// prepared decode hands it over (see `prepareDecode(_:options:)`). With `converter`,
    /// a 16-bit image (still or animated) is converted as `DecodeOptions.color` asks while its rows
    /// still have 16 bits (see ``wideRows(for:color:options:converter:)``).
    func decode(
        _ data: Data, options: DecodeOptions, structure: APNGStructure?, converter: (any ColorConverting)? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .png) }
        // Read once: for the 16-bit conversion and to describe the image.
        let color = PNGColorChunks.read(data)
        var image: DecodedImage
        var convertedTo: ColorProfile??
        let wide = converter.flatMap { Self.wideRows(for: data, color: color, options: options, converter: $0) }
        if let animation = try animationReader(data, structure: structure, options: options, wideRows: wide),
            let frames = try? Self.decodeOnDemand(data, reader: animation, options: options) ?? Self.decodeAll(animation, options: options)
        {
            image = frames
            // Every frame shares the file's IHDR: all of them are 16-bit and converted.
            if let wide { convertedTo = .some(wide.target) }
        } else {
            // Not animated, or a frame that does not decode: the still image, as browsers show it.
            let reader = PNGReader(options: options, wideRows: wide?.transform)
            image = try decodeStill(data, options: options, reader: reader)
            if reader.convertedWide, let wide { convertedTo = .some(wide.target) }
        }
        image.describeColor(color)
        // Already in the asked space: the registry's conversion finds nothing left to do.
        if let convertedTo { image.colorProfile = convertedTo }
        return image
    }

    /// A transform of a 16-bit file's rows and the space it converts to (`nil`: sRGB).
    typealias WideRows = (transform: any WideColorTransforming, target: ColorProfile?)

    /// The transform that takes a 16-bit file's rows to the space `options.color` asks
    /// for, and that space (`nil`: sRGB); `nil` when nothing is to convert (sRGB,
    /// ``ColorHandling/preserve``, 8 bits or fewer) or the engine builds no such
    /// transform, in which case the samples are reduced to 8 bits and the registry
    /// converts those.
    static func wideRows(
        for data: Data, color: PNGColorChunks.Statement, options: DecodeOptions, converter: any ColorConverting
    ) -> WideRows? {
        // The signature, IHDR's length and type, width, height, then the bit depth.
        guard data.count > 24, data[data.startIndex + 24] == 16 else { return nil }
        let target: ColorProfile?
        switch options.color {
        case .preserve: return nil
        case .convertToSRGB: target = nil
        case .convert(let profile): target = profile.isSRGB ? nil : profile
        }
        guard let source = PNGColorChunks.storedPixelProfile(color), source != target,
            let transform = try? converter.wideTransform(from: source, to: target)
        else { return nil }
        return (transform, target)
    }

    /// A reader that composes one frame per call; a file that does not animate gives
    /// its one image.
    ///
    /// - Throws: `ImageDecodingError` when the still image is bad, the animation is over
    ///   the limits, or (while reading) a frame's data does not decode.
    public func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading {
        if let animation = try animationReader(data, structure: APNGStructure(data), options: options) { return animation }
        var still = try decodeStill(data, options: options)
        still.describeColor(of: data)
        return StillImageFrameReader(image: still)
    }

    /// The frame reader whose 16-bit frames `converter` converts before their samples are
    /// reduced (see ``wideRows(for:color:options:converter:)``); its `colorProfile` is
    /// then the space they are in.
    func makeFrameReader(
        for data: Data, options: DecodeOptions, converter: any ColorConverting
    ) throws(ImageDecodingError) -> any ImageFrameReading {
        let wide = Self.wideRows(for: data, color: PNGColorChunks.read(data), options: options, converter: converter)
        if let animation = try animationReader(data, structure: APNGStructure(data), options: options, wideRows: wide) {
            return animation
        }
        return StillImageFrameReader(image: try decode(data, options: options, structure: nil, converter: converter))
    }

    /// The animation's frame reader, or `nil` when `data` does not animate.
    private func animationReader(
        _ data: Data, structure: APNGStructure?, options: DecodeOptions, wideRows: WideRows? = nil
    ) throws(ImageDecodingError) -> APNGFrameReader? {
        guard let structure, structure.isAnimated else { return nil }
        return try APNGFrameReader(
            file: data, structure: structure, orientation: structure.orientation(in: data), options: options, wideRows: wideRows)
    }

    /// The animation as its first frame and a frame source, when `options` do not keep
    /// it whole (``FrameBuffering``) and need no frame turned upright; `nil` to decode
    /// every frame.
    private static func decodeOnDemand(_ data: Data, reader: APNGFrameReader, options: DecodeOptions) throws(ImageDecodingError)
        -> DecodedImage?
    {
        let structure = reader.structure
        let size = options.targetSize(for: structure.canvas)
        guard structure.frames.count > 1, !options.firstFrameOnly,
            !options.appliesOrientation || reader.info.orientation == .up,
            !options.frameBuffering.decodesWhole(frameCount: structure.frames.count, of: size),
            let first = try reader.nextFrame()
        else { return nil }
        let info = reader.info
        let wideRows = reader.wideRows
        let source = AnimationFrameSource(
            info: info, size: size, loopCount: reader.loopCount, storedDelays: structure.frames.map(\.delay),
            policy: options.frameBuffering
        ) { () throws(ImageDecodingError) -> APNGFrameReader in
            try APNGFrameReader(file: data, structure: structure, orientation: info.orientation, options: options, wideRows: wideRows)
        }
        return DecodedImage(
            format: .png, firstFrame: first, frameSource: source, orientation: info.orientation, sourceSize: info.size)
    }

    private static func decodeAll(_ reader: APNGFrameReader, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        var frames: [ImageFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        let image = DecodedImage(
            format: .png, frames: frames, loopCount: reader.loopCount, orientation: reader.info.orientation,
            sourceSize: reader.info.size)
        return try PostProcessing.finish(image, options: DecodeOptions(appliesOrientation: options.appliesOrientation))
    }

    private func decodeStill(
        _ data: Data, options: DecodeOptions, reader: PNGReader? = nil
    ) throws(ImageDecodingError) -> DecodedImage {
        let reader = reader ?? PNGReader(options: options)
        try reader.feed(data)
        try reader.requireComplete()
        return try PNGDecoder.finalImage(from: reader, options: options)
    }

    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        PNGIncrementalDecoder(options: options)
    }

    /// The incremental decoder whose 16-bit rows `converter` converts before their samples
    /// are reduced, partial images included.
    func makeIncrementalDecoder(options: DecodeOptions, converter: any ColorConverting) -> any IncrementalImageDecoding {
        PNGIncrementalDecoder(options: options, converter: converter)
    }

    static func finalImage(from reader: PNGReader, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        guard let bitmap = reader.bitmap() else {
            throw ImageDecodingError(.truncated, "no pixel data", format: .png)
        }
        let (result, orientation) = try PostProcessing.finish(bitmap, options: options, orientation: reader.orientation)
        return DecodedImage(
            format: .png, frames: [ImageFrame(bitmap: result)], orientation: orientation, sourceSize: bitmap.size
        )
    }
}
