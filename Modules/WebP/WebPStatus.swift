internal import CLibWebP
import WebImageCore

/// libwebp's status codes as the library's typed errors.
enum WebPStatus {
    /// The error for a decode that stopped with `status`; `nil` for `VP8_STATUS_OK`.
    ///
    /// `inHeader`: while reading the header, a bitstream error means the header is bad
    /// rather than the pixel data.
    static func error(_ status: VP8StatusCode, inHeader: Bool = false) -> ImageDecodingError? {
        switch status {
        case VP8_STATUS_OK:
            return nil
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
            return ImageDecodingError(.truncated, "the data ends before the image", format: .webp)
        case VP8_STATUS_OUT_OF_MEMORY:
            return ImageDecodingError(.outOfMemory, "libwebp had no memory for the image", format: .webp)
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return ImageDecodingError(.unsupported, "libwebp does not support a feature of this file", format: .webp)
        case VP8_STATUS_BITSTREAM_ERROR where inHeader:
            return ImageDecodingError(.invalidHeader, "the WebP header is invalid", format: .webp)
        default:
            return ImageDecodingError(.corrupt, "the WebP data is damaged (libwebp status \(status.rawValue))", format: .webp)
        }
    }
}
