import Foundation
import WebImageCore
import WebImageFixtures

/// The pictures the WebP tests encode at test time with libwebp's encoder.
enum WebPTestImages {
    /// A photo-like opaque image.
    static func photo(width: Int = 320, height: Int = 240) throws -> ImageBitmap {
        try SyntheticImage.photo(width: width, height: height)
    }

    /// Translucent pixels, some fully transparent with a colour of their own, which a
    /// lossless (exact) file keeps.
    static func translucent(width: Int = 97, height: Int = 61) throws -> ImageBitmap {
        try SyntheticImage.translucent(width: width, height: height)
    }

    /// One colour everywhere.
    static func solid(_ rgba: (UInt8, UInt8, UInt8, UInt8), width: Int = 48, height: Int = 32) throws -> ImageBitmap {
        try SyntheticImage.solid(width: width, height: height, rgba: [rgba.0, rgba.1, rgba.2, rgba.3])
    }
}
