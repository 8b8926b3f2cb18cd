internal import CWebImageEncoding
import Foundation
import WebImageCore

/// Writes bitmaps as PNG files with libpng.
///
/// RGBA bitmaps become colour type RGBA (straight alpha, as `PixelFormat.rgba8`
/// stores it) and gray bitmaps colour type gray, both 8 bits per sample. No gamma or
/// colour chunks are written: the samples are stored as they are.
///
/// ```swift
/// let png = try PNGEncoder().encode(image.bitmap)
/// let quick = try PNGEncoder(compression: .fast).encode(image.bitmap)
/// ```
///
/// Thread contract: a stateless value; `encode` may run on any thread, at once on
/// several. It blocks its thread while compressing.
public struct PNGEncoder: ImageEncoding {
    /// How hard zlib works: smaller files or faster writes.
    public struct Compression: Sendable, Hashable {
        /// The zlib level, 0...9, or `nil` for libpng's default.
        public let zlibLevel: Int?

        /// A zlib level from 0 (store only) to 9 (smallest); clamped to that range.
        public init(zlibLevel: Int) {
            self.zlibLevel = Swift.min(Swift.max(zlibLevel, 0), 9)
        }

        private init(defaultLevel: Void) { zlibLevel = nil }

        /// libpng's default, a good balance of size and speed.
        public static let `default` = Compression(defaultLevel: ())
        /// zlib level 1: several times faster than the default, files somewhat
        /// larger. For tools and caches that rewrite often.
        public static let fast = Compression(zlibLevel: 1)
        /// zlib level 9: the smallest files libpng makes, the slowest.
        public static let smallest = Compression(zlibLevel: 9)
    }

    public var format: ImageFormat { .png }

    /// How hard to compress.
    public var compression: Compression

    /// Writes Adam7-interlaced files, which a browser can show coarse-to-fine while they
    /// arrive; they are usually larger and slower to decode. Off by default.
    public var interlaced: Bool

    /// Writes RGBA bitmaps as colour type RGB, dropping the alpha channel: a quarter
    /// smaller for an image known to be opaque. Off by default; gray bitmaps ignore it.
    public var dropsAlpha: Bool

    /// The ICC profile to embed as an `iCCP` chunk, for pixels in that space
    /// (`DecodedImage.colorProfile` of an image decoded with `ColorHandling.preserve`);
    /// `nil` writes none, which viewers read as sRGB.
    public var colorProfile: ColorProfile?

    /// An encoder with the given compression (libpng's default unless asked).
    public init(compression: Compression = .default) {
        self.compression = compression
        self.interlaced = false
        self.dropsAlpha = false
    }

    /// An encoder with every option chosen.
    public init(compression: Compression = .default, interlaced: Bool, dropsAlpha: Bool = false) {
        self.compression = compression
        self.interlaced = interlaced
        self.dropsAlpha = dropsAlpha
    }

    /// The bytes of a PNG file holding `bitmap`.
    ///
    /// - Throws: `ImageDecodingError.Code.encodingFailed` when libpng refuses the
    ///   image (a zero width or height, a side over PNG's limit of 2^31-1) or memory
    ///   runs out.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        guard bitmap.width <= Int(Int32.max), bitmap.height <= Int(Int32.max) else {
            throw ImageDecodingError(.encodingFailed, "a \(bitmap.width)x\(bitmap.height) image is too large for PNG", format: .png)
        }
        let channels: Int32 =
            switch bitmap.pixelFormat {
            case .rgba8: dropsAlpha ? Int32(WI_PNG_WRITE_RGB_FROM_RGBA) : Int32(WI_PNG_WRITE_RGBA)
            case .gray8: Int32(WI_PNG_WRITE_GRAY)
            }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let icc = colorProfile.map { [UInt8]($0.data) }
        let status = bitmap.withUnsafeBytes { pixels in
            wi_png_write(
                pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), bitmap.bytesPerRow,
                UInt32(bitmap.width), UInt32(bitmap.height), channels,
                Int32(compression.zlibLevel ?? -1), interlaced ? 1 : 0,
                icc, icc?.count ?? 0,
                &output, &outputSize, &message, message.count
            )
        }
        guard status == 0, let output else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageDecodingError(.encodingFailed, detail.isEmpty ? "libpng could not write the image" : detail, format: .png)
        }
        // Data takes the malloc'd buffer as is: no copy of a large file.
        return Data(
            bytesNoCopy: output, count: outputSize,
            deallocator: .custom { pointer, _ in
                wi_png_write_free(pointer.assumingMemoryBound(to: UInt8.self))
            })
    }
}
