import Foundation
import WebImageCore
import WebImageEncoding

/// Writes PNG fixtures through ``PNGEncoder``, adding what only tests and benchmarks
/// want: Adam7 interlacing and opaque RGB files.
///
/// Thread contract: a value; `encode` may run on any thread, at once on several.
public struct PNGFixtureEncoder: ImageEncoding {
    public var format: ImageFormat { .png }
    /// Write Adam7-interlaced files (seven passes, each a coarser-to-finer subset).
    public var interlaced: Bool
    /// zlib effort; `.fast` by default since fixtures are rewritten on every run.
    public var compression: PNGEncoder.Compression
    /// Write RGBA bitmaps as colour type RGB (3 bytes per pixel), dropping alpha.
    public var rgb: Bool

    public init(interlaced: Bool = false, rgb: Bool = false, compression: PNGEncoder.Compression = .fast) {
        self.interlaced = interlaced
        self.rgb = rgb
        self.compression = compression
    }

    /// The bytes of a PNG file holding `bitmap` (colour type RGBA, RGB or gray, 8-bit).
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        try PNGEncoder(compression: compression, interlaced: interlaced, dropsAlpha: rgb).encode(bitmap)
    }
}
