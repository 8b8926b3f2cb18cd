import CLibPNG
import Foundation

/// Reads PNG files back with libpng's simplified API directly, independent of the
/// library's decoder.
enum LibPNGReadback {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The pixels of a PNG as libpng's simplified API gives them, packed: RGBA
    /// (PNG_FORMAT_RGBA) or, when `gray`, one byte of gray (PNG_FORMAT_GRAY).
    static func pixels(_ data: Data, gray: Bool = false) throws -> (width: Int, height: Int, bytes: [UInt8]) {
        // PNG_FORMAT_RGBA is a compound macro Swift does not import; build it from its flags.
        let format = gray ? 0 : UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = data.withUnsafeBytes { bytes in
            png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        }
        guard begun != 0 else { throw Failure(description: message(image)) }
        image.format = format
        let channels = gray ? 1 : 4
        var bytes = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * channels)
        let finished = data.withUnsafeBytes { _ in
            bytes.withUnsafeMutableBytes { out in png_image_finish_read(&image, nil, out.baseAddress, 0, nil) }
        }
        guard finished != 0 else { throw Failure(description: message(image)) }
        return (Int(image.width), Int(image.height), bytes)
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
