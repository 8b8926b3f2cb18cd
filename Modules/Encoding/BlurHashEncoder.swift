import Foundation
import WebImageCore

/// A BlurHash of an image: a short string (20 to 30 characters for the usual 4x3
/// components) from which a client paints a blurred placeholder while the image loads.
/// The algorithm is Wolt's published one: a cosine transform of the linear-light
/// colours, quantised, in base 83.
///
/// Hash a small image: the hash keeps only the lowest frequencies, so a thumbnail of 32
/// to 64 pixels gives the same string as the full image, at a fraction of the cost.
///
/// ```swift
/// let hash = try BlurHashEncoder(componentsX: 4, componentsY: 3).encode(thumbnail.bitmap)
/// ```
public struct BlurHashEncoder: Sendable, Hashable {
    public let componentsX: Int
    public let componentsY: Int

    /// - Parameters: componentsX, componentsY: cosine components per axis, 1 to 9 each.
    public init(componentsX: Int = 4, componentsY: Int = 3) {
        precondition((1...9).contains(componentsX) && (1...9).contains(componentsY), "BlurHash takes 1 to 9 components an axis")
        self.componentsX = componentsX
        self.componentsY = componentsY
    }

    /// The hash of `bitmap` (RGBA, alpha ignored, or gray).
    ///
    /// - Throws: `ImageDecodingError` `invalidDimensions` for an empty bitmap.
    public func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> String {
        guard bitmap.width > 0, bitmap.height > 0 else { throw ImageDecodingError(.invalidDimensions, "an empty image has no BlurHash") }
        let factors = self.factors(bitmap)
        var hash = Self.base83(componentsX - 1 + (componentsY - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if let largest = ac.flatMap({ [abs($0.0), abs($0.1), abs($0.2)] }).max(), largest > 0 {
            let quantised = max(0, min(82, Int((largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += Self.base83(quantised, length: 1)
        } else {
            maximum = 1
            hash += Self.base83(0, length: 1)
        }
        let dc = factors[0]
        hash += Self.base83((Self.sRGB(dc.0) << 16) + (Self.sRGB(dc.1) << 8) + Self.sRGB(dc.2), length: 4)
        for component in ac {
            func quantised(_ value: Double) -> Int {
                let signed = (value / maximum).sign == .minus ? -(abs(value / maximum).squareRoot()) : (value / maximum).squareRoot()
                return max(0, min(18, Int((signed * 9 + 9.5).rounded(.down))))
            }
            hash += Self.base83(quantised(component.0) * 19 * 19 + quantised(component.1) * 19 + quantised(component.2), length: 2)
        }
        return hash
    }

    /// Each component's weight per channel, in linear light: the mean of the pixels times
    /// the component's cosines (times 2 but for the mean colour).
    private func factors(_ bitmap: ImageBitmap) -> [(Double, Double, Double)] {
        let (width, height) = (bitmap.width, bitmap.height)
        let channels = bitmap.pixelFormat.bytesPerPixel
        var linear = [Double](repeating: 0, count: width * height * 3)
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let from = y * bitmap.bytesPerRow + x * channels
                    for channel in 0..<3 {
                        linear[(y * width + x) * 3 + channel] = Self.linearTable[Int(bytes[from + (channels == 1 ? 0 : channel)])]
                    }
                }
            }
        }
        // The cosines per column and per row, computed once rather than per pixel.
        let cosinesX = (0..<componentsX).map { i in (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) } }
        let cosinesY = (0..<componentsY).map { j in (0..<height).map { cos(Double.pi * Double(j) * Double($0) / Double(height)) } }
        var factors: [(Double, Double, Double)] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                var sum = (0.0, 0.0, 0.0)
                for y in 0..<height {
                    for x in 0..<width {
                        let basis = cosinesX[i][x] * cosinesY[j][y]
                        let at = (y * width + x) * 3
                        sum.0 += basis * linear[at]
                        sum.1 += basis * linear[at + 1]
                        sum.2 += basis * linear[at + 2]
                    }
                }
                let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
                factors.append((sum.0 * scale, sum.1 * scale, sum.2 * scale))
            }
        }
        return factors
    }

    /// sRGB bytes in linear light.
    private static let linearTable: [Double] = (0...255).map { byte in
        let value = Double(byte) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// Linear light back to an sRGB byte, rounded.
    static func sRGB(_ linear: Double) -> Int {
        let value = min(1, max(0, linear))
        let encoded = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return Int(encoded * 255 + 0.5)
    }

    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    static func base83(_ value: Int, length: Int) -> String {
        var result = ""
        for position in 1...length {
            var power = 1
            for _ in 0..<(length - position) { power *= 83 }
            result.append(digits[(value / power) % 83])
        }
        return result
    }
}
