import Foundation
import WebImageCore

/// A ThumbHash of an image: about 25 bytes from which a client paints a blurred
/// placeholder that keeps the image's aspect ratio, its average colour and its alpha.
/// The algorithm is Evan Wallace's published one: the image, composited over its
/// average colour, in a luminance and two colour-difference channels (and alpha), each
/// a few cosine components, quantised to four bits.
///
/// Hash a small image: the format reads at most 100 pixels a side, and its few cosines
/// need no more; a larger bitmap is sampled down to 100 by box averages first.
///
/// ```swift
/// let hash = try ThumbHashEncoder().encode(thumbnail.bitmap)
/// let text = hash.base64EncodedString()  // what clients' ThumbHash decoders take
/// ```
public struct ThumbHashEncoder: Sendable, Hashable {
    public init() {}

    /// The hash of `bitmap` (RGBA with straight alpha, or gray).
    ///
    /// - Throws: `ImageDecodingError` `invalidDimensions` for an empty bitmap.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data {
        guard bitmap.width > 0, bitmap.height > 0 else { throw ImageDecodingError(.invalidDimensions, "an empty image has no ThumbHash") }
        let (width, height, pixels) = Self.samples(bitmap)
        let count = Double(width * height)

        // The average colour, weighted by alpha; transparent pixels are painted with it.
        // The arithmetic is in the published order (alpha / 255 * level), so that the
        // quantised factors round as the reference implementation's do.
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for index in 0..<(width * height) {
            let alpha = pixels[4 * index + 3] / 255
            average.r += alpha / 255 * pixels[4 * index]
            average.g += alpha / 255 * pixels[4 * index + 1]
            average.b += alpha / 255 * pixels[4 * index + 2]
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < count
        // Fewer luminance components when alpha takes room.
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(width, height))
        let lx = max(1, Int((luminanceLimit * Double(width) / longest).rounded()))
        let ly = max(1, Int((luminanceLimit * Double(height) / longest).rounded()))

        var l = [Double](repeating: 0, count: width * height)
        var p = l
        var q = l
        var a = l
        for index in 0..<(width * height) {
            let alpha = pixels[4 * index + 3] / 255
            let r = average.r * (1 - alpha) + alpha / 255 * pixels[4 * index]
            let g = average.g * (1 - alpha) + alpha / 255 * pixels[4 * index + 1]
            let b = average.b * (1 - alpha) + alpha / 255 * pixels[4 * index + 2]
            l[index] = (r + g + b) / 3
            p[index] = (r + g) / 2 - b
            q[index] = r - g
            a[index] = alpha
        }

        let luminance = Self.components(l, width: width, height: height, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = Self.components(p, width: width, height: height, nx: 3, ny: 3)
        let redGreen = Self.components(q, width: width, height: height, nx: 3, ny: 3)
        let opacity = hasAlpha ? Self.components(a, width: width, height: height, nx: 5, ny: 5) : nil

        func quantised(_ value: Double, _ levels: Double) -> Int { Int((value * levels).rounded()) }
        let isLandscape = width > height
        let header24 =
            quantised(luminance.dc, 63) | quantised(0.5 + 0.5 * yellowBlue.dc, 63) << 6 | quantised(0.5 + 0.5 * redGreen.dc, 63) << 12
            | quantised(luminance.scale, 31) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? ly : lx) | quantised(yellowBlue.scale, 63) << 3 | quantised(redGreen.scale, 63) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [
            UInt8(header24 & 0xFF), UInt8(header24 >> 8 & 0xFF), UInt8(header24 >> 16), UInt8(header16 & 0xFF), UInt8(header16 >> 8),
        ]
        if let opacity { hash.append(UInt8(quantised(opacity.dc, 15) | quantised(opacity.scale, 15) << 4)) }
        // The varying factors, four bits each, low nibble first.
        let factors = [luminance, yellowBlue, redGreen].flatMap(\.ac) + (opacity?.ac ?? [])
        for (index, factor) in factors.enumerated() {
            if index % 2 == 0 { hash.append(0) }
            hash[hash.count - 1] |= UInt8(quantised(factor, 15)) << (index % 2 == 0 ? 0 : 4)
        }
        return Data(hash)
    }

    /// A channel's cosine components over the triangle `cx * ny < nx * (ny - cy)`: the
    /// constant term, the others scaled into 0...1 around 0.5, and their largest magnitude.
    private static func components(
        _ channel: [Double], width: Int, height: Int, nx: Int, ny: Int
    ) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
        var cosinesX = [Double](repeating: 0, count: width)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                for x in 0..<width { cosinesX[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
                var sum = 0.0
                for y in 0..<height {
                    let cosineY = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<width { sum += channel[x + y * width] * cosinesX[x] * cosineY }
                }
                let factor = sum / Double(width * height)
                if cx == 0 && cy == 0 {
                    dc = factor
                } else {
                    ac.append(factor)
                    scale = max(scale, abs(factor))
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// The pixels as RGBA levels (0...255), at most 100 a side (box averages of a larger
    /// bitmap, colours weighted by alpha so a transparent pixel lends none).
    private static func samples(_ bitmap: ImageBitmap) -> (width: Int, height: Int, pixels: [Double]) {
        let longest = max(bitmap.width, bitmap.height)
        let width = longest > 100 ? max(1, (bitmap.width * 100 + longest / 2) / longest) : bitmap.width
        let height = longest > 100 ? max(1, (bitmap.height * 100 + longest / 2) / longest) : bitmap.height
        let channels = bitmap.pixelFormat.bytesPerPixel
        var pixels = [Double](repeating: 0, count: width * height * 4)
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<height {
                let rows = (y * bitmap.height / height)..<max(y * bitmap.height / height + 1, (y + 1) * bitmap.height / height)
                for x in 0..<width {
                    let columns = (x * bitmap.width / width)..<max(x * bitmap.width / width + 1, (x + 1) * bitmap.width / width)
                    var total = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
                    for row in rows {
                        for column in columns {
                            let at = row * bitmap.bytesPerRow + column * channels
                            let alpha = channels == 4 ? Double(bytes[at + 3]) : 255
                            let r = Double(bytes[at])
                            let g = channels == 4 ? Double(bytes[at + 1]) : r
                            let b = channels == 4 ? Double(bytes[at + 2]) : r
                            total = (total.r + r * alpha, total.g + g * alpha, total.b + b * alpha, total.a + alpha)
                        }
                    }
                    let n = Double(rows.count * columns.count)
                    let at = 4 * (y * width + x)
                    if total.a > 0 {
                        pixels[at] = total.r / total.a
                        pixels[at + 1] = total.g / total.a
                        pixels[at + 2] = total.b / total.a
                    }
                    pixels[at + 3] = total.a / n
                }
            }
        }
        return (width, height, pixels)
    }
}
