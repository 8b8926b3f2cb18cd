import Foundation
import WebImageCore
import WebImageFixtures

/// Pictures the encoder tests share.
enum EncodingTestImages {
    /// RGBA of `colour(x, y)`: three channels (opaque) or four, each taken modulo 256.
    static func rgba(_ width: Int, _ height: Int, _ colour: (Int, Int) -> [Int]) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, row in
            for y in 0..<height {
                for x in 0..<width {
                    let c = colour(x, y)
                    for channel in 0..<4 { bytes[y * row + x * 4 + channel] = channel < c.count ? UInt8(c[channel] % 256) : 255 }
                }
            }
        }
    }

    /// An animation whose second frame is wider than its first: no encoder can write it.
    static func mixedSizeAnimation() throws -> DecodedImage {
        DecodedImage(
            format: .gif,
            frames: [
                ImageFrame(bitmap: try SyntheticImage.photo(width: 10, height: 10)),
                ImageFrame(bitmap: try SyntheticImage.photo(width: 12, height: 10)),
            ], loopCount: 0)
    }
}
