import WebImageCore

/// How far apart two decodes of one picture are.
public enum PixelDifference {
    /// The mean absolute difference per sample of two bitmaps of the same size.
    public static func mean(_ a: ImageBitmap, _ b: ImageBitmap) -> Double {
        let left = a.packedBytes
        let right = b.packedBytes
        precondition(left.count == right.count)
        let total = zip(left, right).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(left.count)
    }
}
