import WebImageCore

/// The filter taps of one axis of a reduction, in the fixed point the C loops use:
/// for each output index, the first source index and `taps` weights (zero-padded, so
/// every output has the same count and the inner loop no branches).
///
/// Which filter, by how much this axis shrinks (source / target = `scale`):
/// - `scale >= 2`: area averaging. Each output is the mean of the source area it
///   covers, partial pixels at the edges weighted by their share. For large reductions
///   it is the right low-pass, and its cost grows only with the area.
/// - `1 < scale < 2`: Catmull-Rom (the cubic with B = 0, C = 0.5), stretched by `scale`
///   so that it also low-passes: the last step after a JPEG's DCT scaling, where area
///   averaging would blur.
/// - `scale == 1`: the identity.
struct ResampleWeights {
    static let one = 1 << 14

    let sourceCount: Int
    let targetCount: Int
    let taps: Int
    /// For each output, its first source index (`starts[i] + taps <= sourceCount`).
    let starts: [Int32]
    /// `targetCount * taps` weights of 2^14 fixed point; each output's sum to 2^14.
    let weights: [Int16]

    init(source: Int, target: Int) {
        precondition(target > 0 && target <= source)
        sourceCount = source
        targetCount = target
        let scale = Double(source) / Double(target)
        var windows: [(first: Int, weights: [Double])] = []
        windows.reserveCapacity(target)
        for index in 0..<target {
            if scale == 1 {
                windows.append((index, [1]))
            } else if scale >= 2 {
                windows.append(Self.area(index, scale: scale, limit: source))
            } else {
                windows.append(Self.catmullRom(index, scale: scale, limit: source))
            }
        }
        let taps = min(source, windows.map(\.weights.count).max() ?? 1)
        self.taps = taps
        var starts = [Int32]()
        var weights = [Int16]()
        starts.reserveCapacity(target)
        weights.reserveCapacity(target * taps)
        for (first, window) in windows {
            // Shift the window left where it would run past the end; pad with zeros.
            let start = min(first, source - taps)
            starts.append(Int32(start))
            var row = [Double](repeating: 0, count: taps)
            for (k, weight) in window.enumerated() { row[first - start + k] = weight }
            weights.append(contentsOf: Self.fixedPoint(row))
        }
        self.starts = starts
        self.weights = weights
    }

    /// The source pixels `[index * scale, (index + 1) * scale)` covers, each weighted
    /// by its share of that area.
    private static func area(_ index: Int, scale: Double, limit: Int) -> (Int, [Double]) {
        let from = Double(index) * scale
        let to = min(Double(limit), Double(index + 1) * scale)
        let first = Int(from.rounded(.down))
        let last = min(limit - 1, Int((to - 1e-9).rounded(.down)))
        let weights = (first...max(first, last)).map { (min(to, Double($0 + 1)) - max(from, Double($0))) / scale }
        return (first, weights)
    }

    /// Catmull-Rom around the output pixel's centre in source space, stretched by
    /// `scale`, clipped to the image and renormalised.
    private static func catmullRom(_ index: Int, scale: Double, limit: Int) -> (Int, [Double]) {
        let centre = (Double(index) + 0.5) * scale - 0.5
        let support = 2 * scale
        let first = max(0, Int((centre - support).rounded(.up)))
        let last = min(limit - 1, Int((centre + support).rounded(.down)))
        var weights = (first...max(first, last)).map { cubic((Double($0) - centre) / scale) }
        let sum = weights.reduce(0, +)
        if sum != 0 { weights = weights.map { $0 / sum } }
        return (first, weights)
    }

    /// The Catmull-Rom kernel (Keys' cubic with a = -0.5).
    static func cubic(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
        if t < 2 { return ((-0.5 * t + 2.5) * t - 4) * t + 2 }
        return 0
    }

    /// `weights` (summing to 1) as 2^14 fixed point summing to exactly 2^14: the
    /// rounding error goes to the largest weight.
    private static func fixedPoint(_ weights: [Double]) -> [Int16] {
        var fixed = weights.map { Int(($0 * Double(one)).rounded()) }
        let error = one - fixed.reduce(0, +)
        if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) { fixed[largest] += error }
        return fixed.map { Int16(clamping: $0) }
    }
}
