internal import CLibAVIF
import Foundation
import WebImageCore
@_spi(Testing) import WebImageDecoding

/// One libavif decoder over bytes the caller keeps alive: the container parsed, the
/// limits checked, and the frames decoded one at a time.
///
/// libavif reads the bytes in place through ``AVIFByteReader``: they must stay at the
/// same address until the session is gone, either because the caller's scope outlives
/// it or because the session holds their owner (`keepingAlive`).
final class AVIFSession {
    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let reader: AVIFByteReader
    /// Released after `deinit` has destroyed the decoder.
    private let bytesOwner: AnyObject?
    /// The coded size of every frame (AVIF sequences have no canvas: each frame is whole).
    let codedSize: PixelSize
    /// Frames in the file: 1 for a still, the track's samples for a sequence.
    let frameCount: Int
    let transform: AVIFTransform

    /// Parses the container in `bytes` and checks it against `options` before any
    /// pixel memory exists.
    ///
    /// `complete` false: more bytes may follow, and a container whose boxes have not
    /// all arrived throws `truncated` (the incremental decoder waits on it).
    ///
    /// - Throws: `empty`, `invalidHeader` for a file that is not AVIF or whose boxes are
    ///   broken, `truncated` for one cut short, `invalidDimensions`, `tooLarge`, or
    ///   `unsupported` when no AV1 decoder is available.
    /// `readsExif`: the Exif item is read too (for the header; decodes leave it).
    init(
        bytes: UnsafeRawBufferPointer, options: DecodeOptions, complete: Bool = true, keepingAlive bytesOwner: AnyObject? = nil,
        readsExif: Bool = false
    ) throws(ImageDecodingError) {
        HeaderParseLog.record(.avif)
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ImageDecodingError(.empty, "no bytes to decode", format: .avif)
        }
        guard let decoder = avifDecoderCreate() else {
            throw ImageDecodingError(.outOfMemory, "libavif could not make a decoder", format: .avif)
        }
        // One thread: the library's decoding executor decides how many images decode at
        // once. Not strict, as browsers: files that omit `pixi` or an alpha `ispe` (older
        // encoders) still open.
        decoder.pointee.maxThreads = 1
        decoder.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        decoder.pointee.ignoreExif = readsExif ? 0 : 1
        decoder.pointee.ignoreXMP = 1
        let reader = AVIFByteReader(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, complete: complete)
        avifDecoderSetIO(decoder, reader.io)
        do {
            try Self.check(avifDecoderParse(decoder), decoder)
        } catch {
            let cutShort = reader.endsInsideABoxHeader && error.code == .invalidHeader
            // libavif refuses sizes over its own limits (32,768 a side, 16,384 x 16,384
            // in all) as a parse failure; its sentence is the only sign of why.
            let overLimits = error.code == .invalidHeader && error.message.contains("too large")
            avifDecoderDestroy(decoder)
            reader.release()
            if cutShort { throw ImageDecodingError(.truncated, "the data ends inside a box header", format: .avif) }
            if overLimits { throw ImageDecodingError(.tooLarge, error.message, format: .avif) }
            throw error
        }
        self.reader = reader
        self.bytesOwner = bytesOwner
        let image = decoder.pointee.image!
        self.decoder = decoder
        codedSize = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        frameCount = Int(decoder.pointee.imageCount)
        transform = AVIFTransform(image)
        // The `colr` box's ICC profile; one over the limit is cut one byte past it, for
        // the profile's header read to refuse by size.
        exif = readsExif ? Self.tiffBlock(image.pointee.exif) : nil
        let icc = image.pointee.icc
        iccProfile = icc.size > 0 && icc.data != nil ? Data(bytes: icc.data, count: min(icc.size, ColorProfile.maximumByteCount + 1)) : nil
        cicp = CICP(
            colorPrimaries: Int(image.pointee.colorPrimaries), transferCharacteristics: Int(image.pointee.transferCharacteristics),
            matrixCoefficients: Int(image.pointee.matrixCoefficients))
        guard codedSize.width > 0, codedSize.height > 0 else {
            throw ImageDecodingError(.invalidDimensions, "the AVIF image is \(codedSize)", format: .avif)
        }
        try checkLimits(options)
    }

    /// Checks the parsed container against `options`' limits, as a session parsed with
    /// them does before any pixel memory exists.
    ///
    /// - Throws: `tooLarge`.
    func checkLimits(_ options: DecodeOptions) throws(ImageDecodingError) {
        try options.checkPixelCount(codedSize.pixelCount, "the AVIF image \(codedSize)")
        let frames = options.firstFrameOnly ? 1 : frameCount
        try options.checkFrameCount(frames)
        let (pixels, overflow) = codedSize.pixelCount.multipliedReportingOverflow(by: frames)
        try options.checkPixelCount(overflow ? .max : pixels, "\(frames) frames of \(codedSize)")
    }

    deinit {
        avifDecoderDestroy(decoder)
        reader.release()
    }

    /// The ICC profile of the `colr` box, `nil` when the file states none.
    let iccProfile: Data?
    /// The Exif item's TIFF block (from its TIFF header on), when read and present.
    let exif: Data?

    /// The TIFF block of an Exif payload: libavif hands over the item past its header
    /// offset field, which may still start with `Exif\0\0`; cut at the header limit.
    private static func tiffBlock(_ payload: avifRWData) -> Data? {
        guard let start = payload.data, payload.size >= 8 else { return nil }
        let bytes = UnsafeBufferPointer(start: start, count: payload.size)
        let headers: [[UInt8]] = [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A]]
        // The header sits at the start or after a short prefix, never deep in the item.
        for offset in 0...min(16, bytes.count - 8) where headers.contains(where: { bytes[offset..<(offset + 4)].elementsEqual($0) }) {
            return Data(bytes[offset..<min(bytes.count, offset + ImageHeader.maximumExifByteCount)])
        }
        return nil
    }
    /// The code points of the `nclx` box (libavif's unspecified values, 2, without one).
    let cicp: CICP

    /// The size shown before orientation (the clean aperture's, when it has one).
    var displaySize: PixelSize { transform.displaySize(of: decoder.pointee.image) }

    /// Decodes the next frame; `nil` after the last.
    ///
    /// The image and its timing are libavif's and stay valid until the next call.
    func nextFrame() throws(ImageDecodingError) -> (image: UnsafeMutablePointer<avifImage>, duration: Double)? {
        let result = avifDecoderNextImage(decoder)
        if result == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        try Self.check(result, decoder)
        return (decoder.pointee.image, decoder.pointee.imageTiming.duration)
    }

    /// Decodes frame `index` (0-based): libavif starts from the nearest keyframe at or
    /// before it, unless the frame just decoded is the one before it.
    func frame(at index: Int) throws(ImageDecodingError) -> (image: UnsafeMutablePointer<avifImage>, duration: Double) {
        try Self.check(avifDecoderNthImage(decoder, UInt32(index)), decoder)
        return (decoder.pointee.image, decoder.pointee.imageTiming.duration)
    }

    /// Frame `index`'s duration in seconds, from the container alone; 0 when unknown.
    func duration(ofFrame index: Int) -> Double {
        var timing = avifImageTiming()
        return avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK ? timing.duration : 0
    }

    private static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>) throws(ImageDecodingError) {
        if let error = AVIFResult.error(result, diagnostics: AVIFResult.text(decoder.pointee.diag)) { throw error }
    }
}
