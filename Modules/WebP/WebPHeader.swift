internal import CLibWebP
import Foundation
import WebImageCore
@_spi(Testing) import WebImageDecoding

/// What a WebP file's headers say, read without decoding a pixel.
///
/// WebP is a RIFF container: a plain lossy (`VP8 `) or lossless (`VP8L`) image, or an
/// extended file (`VP8X`) whose flags announce alpha, animation, EXIF, XMP and ICC
/// chunks. libwebp reads the size and features; the container's flags are read here so
/// that files without EXIF or animation never pay for a demux.
struct WebPHeader {
    /// The image size, or the canvas of an animation.
    let size: PixelSize
    let hasAlpha: Bool
    let isAnimated: Bool
    /// Whether the extended header announces an EXIF chunk.
    let hasEXIF: Bool
    /// The `VP8X` flags announce an `ICCP` chunk (an ICC profile).
    let hasICC: Bool

    /// Reads the headers at the start of `bytes`.
    ///
    /// - Throws: `truncated` when the bytes end inside the headers, `invalidHeader`
    ///   when they are not a WebP file libwebp accepts.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        HeaderParseLog.record(.webp)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw ImageDecodingError(.empty, "no bytes to decode", format: .webp)
        }
        var features = WebPBitstreamFeatures()
        if let error = WebPStatus.error(WebPGetFeatures(base, bytes.count, &features), inHeader: true) { throw error }
        guard features.width > 0, features.height > 0 else {
            throw ImageDecodingError(.invalidDimensions, "the WebP image is \(features.width)x\(features.height)", format: .webp)
        }
        size = PixelSize(width: Int(features.width), height: Int(features.height))
        hasAlpha = features.has_alpha != 0
        isAnimated = features.has_animation != 0
        hasEXIF = WebPHeader.extendedFlags(bytes).map { $0 & 0x08 != 0 } ?? false
        hasICC = WebPHeader.extendedFlags(bytes).map { $0 & 0x20 != 0 } ?? false
    }

    /// The flags byte of a `VP8X` chunk when the file starts with one: "RIFF", size,
    /// "WEBP", then the chunk's fourcc, size, and flags at offset 20.
    static func extendedFlags(_ bytes: UnsafeRawBufferPointer) -> UInt8? {
        guard bytes.count > 20, bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58 else { return nil }
        return bytes[20]
    }
}

extension WebPHeader {
    /// The frame count of an animation, from the chunk list (libwebp's demuxer), or
    /// `nil` when the chunks cannot be read.
    static func frameCount(_ data: Data) -> Int? {
        data.withUnsafeBytes { bytes in
            var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let demuxer = WebPDemux(&webpData) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            return Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        }
    }
}
