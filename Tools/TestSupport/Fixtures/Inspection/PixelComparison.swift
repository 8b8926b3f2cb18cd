import Foundation

/// How close two images' samples are, for tests and benchmarks that compare a result
/// with a reference.
public enum PixelComparison {
    /// Peak signal-to-noise ratio of 8-bit samples, in dB: `infinity` when equal. The
    /// arrays must be the same length (the same layout, sample for sample).
    public static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty, "PSNR compares two non-empty images of one size")
        var sum = 0.0
        for (x, y) in zip(a, b) {
            let difference = Double(Int(x) - Int(y))
            sum += difference * difference
        }
        let meanSquare = sum / Double(a.count)
        return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
    }
}
