internal import CLibAVIF
import Foundation
import WebImageCore

/// Writes AVIF with libavif and libaom: stills and image sequences.
///
/// ```swift
/// let avif = try AVIFEncoder(quality: 60).encode(thumbnail.bitmap)
/// ```
///
/// Speed is libaom's effort, 0 (slowest, smallest) to 10 (fastest); the default, 8, is
/// the fastest that keeps files small: on a 500x333 thumbnail, speed 6 costs about ten
/// times what speed 10 does. Quality 0 to 100 maps onto AV1's quantizer (63 at 0, 0 at
/// 100) as libavif 1.x maps its own quality setting; libavif 0.11, Debian 12's, has
/// only the quantizers. `lossless` writes 4:4:4 with the identity matrix at quantizer 0,
/// so that every pixel comes back exactly (and slowly, and large).
///
/// Gray bitmaps are written as monochrome (4:0:0). Alpha is written only when some
/// pixel is not opaque. `orientation` is written as the `irot` and `imir` properties,
/// so a viewer turns the picture without the pixels being turned here.
///
/// Thread contract: a value; `encode` may run on any thread, at once on several. Each
/// call uses one thread.
public struct AVIFEncoder: AnimatedImageEncoding {
    /// How chroma is stored.
    public enum Subsampling: Sendable, Hashable {
        /// Half the chroma in each direction: the web's usual choice.
        case s420
        /// Full chroma: sharper colour edges, larger files.
        case s444
    }

    public var format: ImageFormat { .avif }
    /// 0 to 100; 60 by default.
    public var quality: Int
    /// libaom's speed, 0 to 10; 8 by default.
    public var speed: Int
    public var subsampling: Subsampling
    public var lossless: Bool
    /// The ICC profile to embed in the `colr` box, for pixels in that space
    /// (`DecodedImage.colorProfile` of an image decoded with `ColorHandling.preserve`);
    /// `nil` writes none, which viewers read as sRGB. Stills only.
    public var colorProfile: ColorProfile?
    /// Colour primaries and transfer characteristics written in the `nclx` box, saying
    /// what the pixels are in; for the tests of the decoder (the matrix coefficients
    /// stay the encoder's own).
    var statedColorSpace: CICP?
    /// Bits per sample of colour pictures (8, 10 or 12), from the 8-bit pixels given;
    /// for the tests of the decoder's high-depth path. Gray is always 8.
    var depth = 8

    public init(quality: Int = 60, speed: Int = 8, subsampling: Subsampling = .s420, lossless: Bool = false) {
        self.quality = quality
        self.speed = speed
        self.subsampling = subsampling
        self.lossless = lossless
    }

    /// The bytes of an AVIF file holding `bitmap`.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed` for an empty bitmap, one over
    ///   AVIF's 65,536 pixels a side, or when libavif fails.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        try encode(bitmap, orientation: .up)
    }

    /// `encode(_:)`, writing `orientation` as `irot`/`imir` properties.
    public func encode(_ bitmap: ImageBitmap, orientation: ImageOrientation) throws(ImageDecodingError) -> Data {
        try encode(bitmap, orientation: orientation, cleanAperture: nil)
    }

    /// `encode(_:orientation:)` with a clean aperture (a crop for viewers) around
    /// `cleanAperture`, a rectangle of coded pixels, and an Exif item; for the tests of
    /// the decoder.
    func encode(
        _ bitmap: ImageBitmap, orientation: ImageOrientation, cleanAperture: avifCropRect?, exif: Data? = nil
    ) throws(ImageDecodingError) -> Data {
        let image = try AVIFEncoderImage(bitmap, settings: self, orientation: orientation, cleanAperture: cleanAperture)
        if let colorProfile {
            let icc = [UInt8](colorProfile.data)
            avifImageSetProfileICC(image.pointer, icc, icc.count)
        }
        if let exif {
            let bytes = [UInt8](exif)
            avifImageSetMetadataExif(image.pointer, bytes, bytes.count)
        }
        let encoder = try makeEncoder()
        defer { avifEncoderDestroy(encoder) }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        let result = avifEncoderWrite(encoder, image.pointer, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw AVIFResult.encodingError(result, diagnostics: AVIFResult.text(encoder.pointee.diag))
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// An AVIF image sequence of `image`'s frames (all the same size), each shown for
    /// its `ImageFrame.storedDelay` (the delay as the source wrote it). AVIF in libavif
    /// 0.11 writes no repetition count: players loop it. A still gives one frame.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed`.
    public func encodeAnimation(_ image: DecodedImage) throws(ImageDecodingError) -> Data {
        let encoder = try makeEncoder()
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.timescale = 1000
        let size = image.size
        // Frame by frame: an animation composed on demand holds one frame at a time.
        try image.forEachFrame { (_, frame) throws(ImageDecodingError) in
            guard frame.bitmap.size == size else {
                throw ImageDecodingError(.encodingFailed, "a frame of \(frame.bitmap.size) in a sequence of \(size)", format: .avif)
            }
            let picture = try AVIFEncoderImage(frame.bitmap, settings: self, orientation: .up, cleanAperture: nil)
            let delay = frame.storedDelay.components
            let milliseconds = max(1, delay.seconds * 1000 + delay.attoseconds / 1_000_000_000_000_000)
            let result = avifEncoderAddImage(encoder, picture.pointer, UInt64(milliseconds), AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
            guard result == AVIF_RESULT_OK else {
                throw AVIFResult.encodingError(result, diagnostics: AVIFResult.text(encoder.pointee.diag))
            }
        }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        let result = avifEncoderFinish(encoder, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw AVIFResult.encodingError(result, diagnostics: AVIFResult.text(encoder.pointee.diag))
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// AV1's quantizer for `quality` (clamped to 0...100): 63 at 0, 0 at 100, linear
    /// between, as libavif 1.x maps its own quality. What the encoder sets for colour and
    /// alpha; for comparing with tools that take a quantizer.
    public static func quantizer(quality: Int) -> Int32 {
        let clamped = min(100, max(0, quality))
        return Int32(((100 - clamped) * 63 + 50) / 100)
    }

    private func makeEncoder() throws(ImageDecodingError) -> UnsafeMutablePointer<avifEncoder> {
        guard let encoder = avifEncoderCreate() else {
            throw ImageDecodingError(.encodingFailed, "libavif could not make an encoder", format: .avif)
        }
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(min(10, max(0, speed)))
        let quantizer = lossless ? 0 : Self.quantizer(quality: quality)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        return encoder
    }
}
