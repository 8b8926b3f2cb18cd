internal import CWebImageFixtures
import Foundation
import WebImageCore

/// Writes JPEG fixtures with libjpeg's compress API, with the variations decoders
/// must handle.
///
/// RGBA bitmaps are compressed as colour (alpha is ignored), gray bitmaps as
/// single-component grayscale.
///
/// ```swift
/// let photo = try SyntheticImage.photo(width: 4000, height: 3000)
/// let jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(photo)
/// ```
///
/// Thread contract: a value; `encode` may run on any thread, at once on several.
public struct JPEGFixtureEncoder: ImageEncoding {
    /// How the two chroma components are sampled relative to luma.
    public enum Subsampling: Sendable, Hashable, CaseIterable {
        /// Full-resolution chroma.
        case s444
        /// Chroma halved horizontally.
        case s422
        /// Chroma halved horizontally and vertically (what cameras and the web use).
        case s420
    }

    public var format: ImageFormat { .jpeg }
    /// 1...100; 85 unless asked.
    public var quality: Int
    /// Chroma subsampling for colour images; ignored for gray.
    public var subsampling: Subsampling
    /// Write libjpeg's standard progressive scan script instead of one baseline scan.
    public var progressive: Bool
    /// When set, an EXIF APP1 segment with this orientation follows SOI (and no JFIF
    /// segment is written, as on camera files).
    public var exifOrientation: ImageOrientation?
    /// MCUs between restart markers (RST0...RST7); 0 writes none.
    public var restartInterval: Int

    public init(
        quality: Int = 85, subsampling: Subsampling = .s420, progressive: Bool = false,
        exifOrientation: ImageOrientation? = nil, restartInterval: Int = 0
    ) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.exifOrientation = exifOrientation
        self.restartInterval = restartInterval
    }

    /// The bytes of a JPEG file holding `bitmap`.
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed`` when libjpeg refuses the
    ///   image (a zero side, a side over 65500) or memory runs out.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        guard bitmap.width <= 65_500, bitmap.height <= 65_500 else {
            throw ImageDecodingError(.encodingFailed, "a \(bitmap.width)x\(bitmap.height) image is too large for JPEG", format: .jpeg)
        }
        var settings = wif_jpeg_settings()
        settings.quality = Int32(Swift.min(100, Swift.max(1, quality)))
        settings.subsampling =
            switch subsampling {
            case .s444: Int32(WIF_JPEG_444)
            case .s422: Int32(WIF_JPEG_422)
            case .s420: Int32(WIF_JPEG_420)
            }
        settings.progressive = progressive ? 1 : 0
        settings.exif_orientation = Int32(exifOrientation?.rawValue ?? 0)
        settings.restart_interval = Int32(Swift.min(65_535, Swift.max(0, restartInterval)))
        let input: Int32 = bitmap.pixelFormat == .gray8 ? Int32(WIF_JPEG_INPUT_GRAY) : Int32(WIF_JPEG_INPUT_RGBA)
        return try bitmap.withUnsafeBytes { (pixels) throws(ImageDecodingError) -> Data in
            try CEncoderOutput.run(format: .jpeg) { buffer, message, capacity in
                wif_jpeg_encode(
                    pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), bitmap.bytesPerRow,
                    UInt32(bitmap.width), UInt32(bitmap.height), input,
                    &settings, buffer, message, capacity
                )
            }
        }
    }
}
