import Foundation

/// A normalised one-dimensional Gaussian, cut where it falls below a fifth of its peak
/// (libvips's `gaussblur` default, which imgproxy's blur uses): radius σ·√(2 ln 5).
struct GaussianKernel {
    let weights: [Float]
    var radius: Int { weights.count / 2 }

    init(sigma: Double) {
        let radius = max(1, Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.up)))
        var weights = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = weights.reduce(0, +)
        for index in weights.indices { weights[index] /= total }
        self.weights = weights
    }
}

/// Convolves premultiplied float pixels with one kernel along rows, then columns; edges
/// repeat their last pixel.
enum SeparableConvolution {
    /// `pixels` (premultiplied, `channels` per pixel, `width` x `height`) blurred.
    static func apply(_ kernel: GaussianKernel, to pixels: [Float], width: Int, height: Int, channels: Int) -> [Float] {
        let radius = kernel.radius
        var rows = [Float](repeating: 0, count: pixels.count)
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                for channel in 0..<channels {
                    var sum: Float = 0
                    for (offset, weight) in kernel.weights.enumerated() {
                        let sx = min(width - 1, max(0, x + offset - radius))
                        sum += pixels[(row + sx) * channels + channel] * weight
                    }
                    rows[(row + x) * channels + channel] = sum
                }
            }
        }
        var result = [Float](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<channels {
                    var sum: Float = 0
                    for (offset, weight) in kernel.weights.enumerated() {
                        let sy = min(height - 1, max(0, y + offset - radius))
                        sum += rows[(sy * width + x) * channels + channel] * weight
                    }
                    result[(y * width + x) * channels + channel] = sum
                }
            }
        }
        return result
    }
}
