internal import CLibWebP
import Foundation
import WebImageCore
import WebImageDecoding

/// The orientation in a WebP file's EXIF chunk, and the profile of its ICCP chunk.
enum WebPMetadata {
    /// The ICC profile of the file's `ICCP` chunk, `nil` when it has none. Reads the
    /// chunk list only (libwebp's demuxer); a profile over
    /// `ColorProfile.maximumByteCount` is not copied (the caller's header read refuses
    /// it by its declared size).
    static func iccProfile(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var webp = WebPData(bytes: base, size: bytes.count)
            guard let demuxer = WebPDemux(&webp) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let start = chunk.chunk.bytes else { return nil }
            return Data(bytes: start, count: min(chunk.chunk.size, ColorProfile.maximumByteCount + 1))
        }
    }

    /// The EXIF orientation of the file in `bytes`, `.up` when it has none or it is
    /// malformed. Reads the chunk list only (libwebp's demuxer), no pixel data.
    static func orientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        withEXIF(bytes) { ExifOrientation.read(tiff: $0) } ?? .up
    }

    /// The TIFF bytes of the file's EXIF chunk, at most `ImageHeader.maximumExifByteCount`.
    static func exif(_ bytes: UnsafeRawBufferPointer) -> Data? {
        withEXIF(bytes) { Data(buffer: UnsafeBufferPointer(rebasing: $0.prefix(ImageHeader.maximumExifByteCount))) }
    }

    /// `body` on the TIFF bytes of the EXIF chunk; `nil` without one.
    private static func withEXIF<R>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let start = chunk.chunk.bytes else { return nil }
        var exif = UnsafeBufferPointer(start: start, count: chunk.chunk.size)
        // The container holds the TIFF data itself; some writers keep JPEG's APP1 prefix.
        let prefix: [UInt8] = Array("Exif\0\0".utf8)
        if exif.count >= prefix.count, exif.prefix(prefix.count).elementsEqual(prefix) {
            exif = UnsafeBufferPointer(rebasing: exif[prefix.count...])
        }
        return body(exif)
    }
}
