import Foundation
import WebImageCore

/// Decodes JPEG files with libjpeg-turbo.
///
/// Built on the **libjpeg API** of libjpeg-turbo rather than TurboJPEG. Both run the
/// same SIMD engine, but only the libjpeg API offers a suspending data source
/// (incremental decoding as bytes arrive), buffered-image mode (a full-size partial
/// image after each progressive scan), DCT-domain scaling to any M/8, CMYK output and
/// saved markers (EXIF).
///
/// - Baseline, progressive, arithmetic-coded, grayscale and every chroma subsampling;
///   8-bit only (12-bit and lossless files are `ImageDecodingError.Code.unsupported`).
/// - Pixels are libjpeg-turbo's with djpeg's defaults (accurate integer IDCT, fancy
///   upsampling), written as RGBA (alpha 255) straight into the output rows. Gray
///   files give RGBA too, unless `DecodeOptions.pixelFormat` asks for
///   `PixelFormat.gray8` (then libjpeg's luma, for colour files as well).
/// - The ICC profile of the APP2 `ICC_PROFILE` segments (in any order, put together in
///   one pass, 4 MiB at most) is attached to the image (`DecodedImage.colorProfile`);
///   the decoder registry converts it when it has a colour engine. Missing, repeated
///   or oversized segments, or a profile that is not usable, are ignored with a
///   warning (`DecodedImage.warnings`), and the pixels are shown as stored.
/// - CMYK and YCCK (Adobe) files, whose values libjpeg reports inverted as Adobe
///   writes them (every CMYK JPEG is read so, as djpeg and browsers read them), are
///   converted to sRGB through their embedded CMYK profile, or the colour engine's
///   default CMYK profile, when decoded through a registry that has a colour engine;
///   otherwise with djpeg's formula (r = c * k / 255), and a
///   `DecodeWarning.Code.colorNotManaged` warning says so.
/// - The EXIF orientation is read from the first APP1 segment that holds Exif and
///   exposed as `DecodedImage.orientation`; the pixels are turned only with
///   `DecodeOptions.appliesOrientation`.
/// - Work is linear in the input however many segments repeat: APP1 is read by our
///   own marker reader (only the first Exif segment is kept), COM and the other APPn
///   are skipped unsaved, and files of more than 1000 scans are refused as
///   `ImageDecodingError.Code.corrupt`.
/// - With `DecodeOptions.maxPixelSize` libjpeg decodes at the smallest M/8 scale that
///   still covers the target, and the rows stream into the resampler (Catmull-Rom for
///   the reduction under 2x that is left):
///   a 4000x3000 photo asked for at 500 px never exists at full size, nor even whole
///   at the scaled size.
/// - Data that ends early: if every pixel was decoded (only EOI or other trailing
///   markers missing) the image is returned; if pixels are missing, or a progressive
///   file lacks scans, ``decode(_:options:)`` throws
///   `ImageDecodingError.Code.truncated`. Recoverable corruption that libjpeg only
///   warns about (junk bytes between markers) is tolerated.
///
/// Thread contract: a stateless value; `decode` may run on any number of threads at
/// once, each call blocking its thread for the decode.
public struct JPEGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .jpeg }

    /// Decodes a whole JPEG file.
    ///
    /// - Throws: `ImageDecodingError` with `ImageDecodingError.Code.empty` (no
    ///   bytes), `invalidHeader` (no SOI marker), `invalidDimensions` (width or height
    ///   0), `unsupported` (12-bit, lossless, unknown colour space), `truncated`
    ///   (pixels missing), `tooLarge` (over `DecodeOptions.maxPixelCount`, checked
    ///   from the header), `corrupt` (anything else libjpeg refuses; its message is
    ///   kept in `ImageDecodingError.message`) or `outOfMemory`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: options, converter: nil)
    }

    /// Decodes with `converter` for CMYK files, whose ink a bitmap cannot hold: their
    /// rows go through the converter at the DCT-scaled size, before the resampler.
    func decode(_ data: Data, options: DecodeOptions, converter: (any ColorConverting)?) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode", format: .jpeg) }
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ImageDecodingError) -> DecodedImage in
                try JPEGDecoder.decodeWhole(raw, options: options, converter: converter)
            }
        }
        return try result.get()
    }

    /// A decoder fed bytes as they arrive (see `IncrementalImageDecoding`).
    ///
    /// Baseline files show the rows decoded so far, the rest mid-grey; progressive
    /// files show a full-size image after a completed scan, once new bytes worth 1/64
    /// of the output pixels have come since the last one (every scan of a photo; not a
    /// pass per scan of a file of many tiny ones). However thin the slices, the work
    /// stays linear in the input. Arithmetic-coded files
    /// (rare) show nothing before `IncrementalImageDecoding.finish()`: libjpeg cannot
    /// pause inside their scans.
    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding {
        JPEGIncrementalDecoder(options: options)
    }

    /// The one-shot path: the same engine as the incremental decoder, reading the
    /// caller's bytes in place with the end of data declared up front.
    private static func decodeWhole(
        _ bytes: UnsafeRawBufferPointer, options: DecodeOptions, converter: (any ColorConverting)?
    ) throws(ImageDecodingError) -> DecodedImage {
        let engine = try JPEGDecompressor(incremental: false)
        try engine.borrow(bytes)
        guard try engine.step() == .headerReady else {
            throw ImageDecodingError(.truncated, "the data ends inside the JPEG header", format: .jpeg)
        }
        let header = engine.header
        let orientation = engine.orientation
        let plan = try JPEGScalePlan(header: header, options: options)
        let (decodedSize, pixelFormat) = try engine.configure(scaleEighths: plan.scaleEighths, gray: plan.wantsGray)
        try options.checkPixelCount(decodedSize.pixelCount, "a \(decodedSize) JPEG decode")
        let color = JPEGColor(header: header, embedded: engine.embeddedProfile, options: options, converter: converter)
        let cmykTransform = color.cmykTransform
        if cmykTransform != nil { engine.keepCMYK() }

        let bitmap: ImageBitmap
        let target = PixelSize(
            width: min(plan.targetSize.width, decodedSize.width),
            height: min(plan.targetSize.height, decodedSize.height)
        )
        if target == decodedSize {
            bitmap = try ImageBitmap(width: decodedSize.width, height: decodedSize.height, pixelFormat: pixelFormat) {
                (pixels, bytesPerRow) throws(ImageDecodingError) in
                try engine.setOutput(base: pixels.baseAddress!, bytesPerRow: bytesPerRow, stripRows: 0)
                try runToEnd(engine) { _ in }
                cmykTransform?.apply(pixels.baseAddress!, pixelCount: decodedSize.pixelCount)
            }
        } else {
            bitmap = try decodeDownsampled(
                engine, decodedSize: decodedSize, target: target, pixelFormat: pixelFormat, transform: cmykTransform)
        }
        if engine.pixelsMissing {
            throw ImageDecodingError(.truncated, "the data ends before every pixel was decoded", format: .jpeg)
        }
        let (final, shownOrientation) = try PostProcessing.finish(bitmap, options: options, orientation: orientation)
        var image = DecodedImage(format: .jpeg, frames: [ImageFrame(bitmap: final)], orientation: shownOrientation, sourceSize: header.size)
        color.describe(&image)
        return image
    }

    /// Streams the DCT-scaled rows through a small strip into a ``RowDownsampler``.
    private static func decodeDownsampled(
        _ engine: JPEGDecompressor, decodedSize: PixelSize, target: PixelSize, pixelFormat: PixelFormat,
        transform: (any ColorTransforming)?
    ) throws(ImageDecodingError) -> ImageBitmap {
        // A JPEG has no alpha: its RGBA rows are opaque.
        let sampler = try RowDownsampler(source: decodedSize, target: target, pixelFormat: pixelFormat, opaque: true)
        let stripHeight = 16
        let strip = try PixelStorage.packed(width: decodedSize.width, height: stripHeight, pixelFormat: pixelFormat)
        let stride = decodedSize.width * pixelFormat.bytesPerPixel
        try strip.withUnsafeMutableBytes { (raw) throws(ImageDecodingError) in
            let base = raw.baseAddress!
            try engine.setOutput(base: base, bytesPerRow: stride, stripRows: stripHeight)
            try runToEnd(engine) { rows in
                transform?.apply(base, pixelCount: rows.count * decodedSize.width)
                for index in 0..<rows.count { sampler.consume(row: base + index * stride) }
            }
        }
        return sampler.finish()
    }

    /// Steps a decoder that has all its data until it is done, handing each filled
    /// strip to `consume`.
    private static func runToEnd(_ engine: JPEGDecompressor, consume: (Range<Int>) -> Void) throws(ImageDecodingError) {
        while true {
            switch try engine.step() {
            case .done: return
            case .rowsReady: consume(engine.stripRows)
            case .needData, .headerReady:
                // Cannot happen with the end of data declared; never loop on it.
                throw ImageDecodingError(.invalidState, "libjpeg asked for data after the end", format: .jpeg)
            }
        }
    }
}
