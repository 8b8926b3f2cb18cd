// Writes a small RGBA image as PNG with libpng, decodes it back and checks every pixel:
// the decoding module works in an app that depends on nothing else.
import Foundation
import WebImageCore
import WebImageDecoding

let width = 5
let height = 3
func pixel(_ x: Int, _ y: Int) -> [UInt8] {
    [UInt8(x * 50), UInt8(y * 80), UInt8(255 - x * 20), UInt8(128 + y * 40)]
}

let original = try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, bytesPerRow in
    for y in 0..<height {
        for x in 0..<width {
            for (channel, value) in pixel(x, y).enumerated() {
                bytes[y * bytesPerRow + x * 4 + channel] = value
            }
        }
    }
}
let png = try PNGEncoder().encode(original)
let decoded = try PNGDecoder().decode(png, options: DecodeOptions())

guard decoded.format == .png, decoded.size == PixelSize(width: width, height: height) else {
    print("DecodingConsumer: decoded \(decoded.format) \(decoded.size), expected png \(width)x\(height)")
    exit(1)
}
let expected = (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
guard decoded.bitmap.packedBytes == expected else {
    print("DecodingConsumer: the pixels differ from those written")
    exit(1)
}
print("DecodingConsumer: \(png.count)-byte PNG decoded to \(decoded.size), every pixel as written")
