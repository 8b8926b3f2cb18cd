import Foundation
import WebImage
import WebImageFixtures

/// The images the proxy tests serve, made at test time.
enum ProxyImages {
    /// A 1600x1200 synthetic photo (or one of the size given) as a baseline JPEG.
    static func photoJPEG(width: Int = 1600, height: Int = 1200) throws -> Data {
        guard width == 1600, height == 1200 else { return try makePhotoJPEG(width: width, height: height) }
        return try defaultPhoto.get()
    }

    /// The default photo, painted once for the process: some forty tests and cases serve
    /// it, and painting its pixels takes seconds in a sanitizer build.
    private static let defaultPhoto = Result { try makePhotoJPEG(width: 1600, height: 1200) }

    private static func makePhotoJPEG(width: Int, height: Int) throws -> Data {
        try JPEGFixtureEncoder(quality: 85).encode(SyntheticImage.photo(width: width, height: height))
    }

    /// A PNG whose left half is one colour and right half another: which half a cut kept
    /// shows in the output's pixels.
    static func halvesPNG(width: Int = 400, height: Int = 200, left: [UInt8], right: [UInt8]) throws -> Data {
        try PNGFixtureEncoder().encode(halves(width: width, height: height, left: left, right: right))
    }

    /// A PNG of white with a red block at `block`: what a trim cuts to.
    static func framedPNG(width: Int = 400, height: Int = 200, block: PixelRect) throws -> Data {
        try PNGFixtureEncoder().encode(
            ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, row in
                for y in 0..<height {
                    for x in 0..<width {
                        let inside = block.x..<(block.x + block.width) ~= x && block.y..<(block.y + block.height) ~= y
                        for (channel, value) in (inside ? [255, 0, 0, 255] : [255, 255, 255, 255] as [UInt8]).enumerated() {
                            bytes[y * row + x * 4 + channel] = value
                        }
                    }
                }
            })
    }

    /// The halves as a lossless WebP whose EXIF says to show it turned `orientation`.
    static func halvesWebP(orientation: ImageOrientation, left: [UInt8], right: [UInt8]) throws -> Data {
        try WebPFixtureEncoder(lossless: true, exifOrientation: orientation).encode(
            halves(width: 400, height: 200, left: left, right: right))
    }

    private static func halves(width: Int, height: Int, left: [UInt8], right: [UInt8]) throws -> ImageBitmap {
        try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, row in
            for y in 0..<height {
                for x in 0..<width {
                    let colour = x < width / 2 ? left : right
                    for channel in 0..<3 { bytes[y * row + x * 4 + channel] = colour[channel] }
                    bytes[y * row + x * 4 + 3] = 255
                }
            }
        }
    }

    /// A PNG flat gray but for a busy band (a photo's pixels) at `busyColumns`: what a
    /// smart cut must keep.
    static func busyBandPNG(width: Int = 600, height: Int = 200, busyColumns: Range<Int>) throws -> Data {
        let photo = try SyntheticImage.photo(width: width, height: height, seed: 7)
        let bitmap = try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, row in
            photo.withUnsafeBytes { source in
                for y in 0..<height {
                    for x in 0..<width {
                        for channel in 0..<4 {
                            let busy = busyColumns.contains(x)
                            bytes[y * row + x * 4 + channel] =
                                channel == 3 ? 255 : busy ? source[y * photo.bytesPerRow + x * 4 + channel] : 128
                        }
                    }
                }
            }
        }
        return try PNGFixtureEncoder().encode(bitmap)
    }

    /// The average colour of a decoded output.
    static func averageColour(of data: Data) throws -> [Int] {
        let image = try ImageDecoderRegistry.allFormats.decode(data)
        var sums = [0, 0, 0]
        image.bitmap.withUnsafeBytes { bytes in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for channel in 0..<3 { sums[channel] += Int(bytes[y * image.bitmap.bytesPerRow + x * 4 + channel]) }
                }
            }
        }
        return sums.map { $0 / (image.width * image.height) }
    }
}

extension ProxyImages {
    /// The share of an output's pixels that are not the flat gray of `busyBandPNG`.
    static func busyShare(of data: Data) throws -> Double {
        let image = try ImageDecoderRegistry.allFormats.decode(data)
        var busy = 0
        image.bitmap.withUnsafeBytes { bytes in
            for y in 0..<image.height {
                for x in 0..<image.width
                where (0..<3).contains(where: { abs(Int(bytes[y * image.bitmap.bytesPerRow + x * 4 + $0]) - 128) > 3 }) {
                    busy += 1
                }
            }
        }
        return Double(busy) / Double(image.width * image.height)
    }

    /// An output's size, read back with the library's decoders.
    static func size(of data: Data) throws -> PixelSize {
        try ImageDecoderRegistry.allFormats.header(of: data).info.size
    }
}
