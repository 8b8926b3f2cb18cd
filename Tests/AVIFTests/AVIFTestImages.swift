import WebImageCore
import WebImageFixtures

/// The pictures the AVIF tests encode at test time with libavif's encoder.
enum AVIFTestImages {
    static func photo(width: Int = 160, height: Int = 120) throws -> ImageBitmap {
        try SyntheticImage.photo(width: width, height: height)
    }

    static func translucent(width: Int = 57, height: Int = 41) throws -> ImageBitmap {
        try SyntheticImage.translucent(width: width, height: height)
    }

    /// Four quadrants of four colours, so that a turn or a mirror moves each corner
    /// somewhere a test can name.
    static func quadrants(width: Int = 32, height: Int = 16) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { out, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let colour = corners[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                    for channel in 0..<4 { out[y * stride + x * 4 + channel] = colour[channel] }
                }
            }
        }
    }

    /// Top left, top right, bottom left, bottom right.
    static let corners: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]

    /// The RGBA of the pixel at `x`, `y`.
    static func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        bitmap.withUnsafeBytes { Array($0[(y * bitmap.bytesPerRow + x * 4)..<(y * bitmap.bytesPerRow + x * 4 + 4)]) }
    }

    /// A pixel's colour is `expected` within a lossy codec's reach.
    static func close(_ pixel: [UInt8], _ expected: [UInt8], tolerance: Int = 24) -> Bool {
        zip(pixel, expected).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }
}
