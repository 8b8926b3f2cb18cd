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
        let filter = Filter(source: source, target: target)
        // Every output's window first, to give all of them the widest one's tap count;
        // then the weights, written straight into one flat array (no array per output:
        // a decode to fit builds these each time).
        let windows = (0..<target).map { filter.window(of: $0) }
        let taps = min(source, windows.map(\.count).max() ?? 1)
        self.taps = taps
        var starts = [Int32]()
        starts.reserveCapacity(target)
        var weights = [Int16](repeating: 0, count: target * taps)
        var row = [Double](repeating: 0, count: taps)
        var fixed = [Int](repeating: 0, count: taps)
        for (index, window) in windows.enumerated() {
            // Shift the window left where it would run past the end; pad with zeros.
            let start = min(window.lowerBound, source - taps)
            starts.append(Int32(start))
            for k in 0..<taps { row[k] = 0 }
            var sum = 0.0
            for i in window {
                row[i - start] = filter.weight(of: i, output: index)
                sum += row[i - start]
            }
            if filter.renormalises, sum != 0 { for k in 0..<taps { row[k] /= sum } }
            // 2^14 fixed point summing to exactly 2^14: the rounding error goes to the
            // largest weight.
            for k in 0..<taps { fixed[k] = Int((row[k] * Double(Self.one)).rounded()) }
            let error = Self.one - fixed.reduce(0, +)
            if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) { fixed[largest] += error }
            for k in 0..<taps { weights[index * taps + k] = Int16(clamping: fixed[k]) }
        }
        self.starts = starts
        self.weights = weights
    }

    /// One axis's filter, chosen by how much it shrinks.
    private struct Filter {
        enum Kind { case identity, area, catmullRom }
        let kind: Kind
        let scale: Double
        let limit: Int

        init(source: Int, target: Int) {
            scale = Double(source) / Double(target)
            limit = source
            kind = scale == 1 ? .identity : scale >= 2 ? .area : .catmullRom
        }

        /// Catmull-Rom's window is clipped at the edges, so its weights are divided by
        /// their sum; an area's already sum to one.
        var renormalises: Bool { kind == .catmullRom }

        /// The source indices output `index` reads.
        func window(of index: Int) -> ClosedRange<Int> {
            switch kind {
            case .identity:
                return index...index
            case .area:
                // The source pixels `[index * scale, (index + 1) * scale)` covers.
                let to = min(Double(limit), Double(index + 1) * scale)
                let first = Int((Double(index) * scale).rounded(.down))
                return first...max(first, min(limit - 1, Int((to - 1e-9).rounded(.down))))
            case .catmullRom:
                // Around the output pixel's centre in source space, stretched by `scale`.
                let centre = (Double(index) + 0.5) * scale - 0.5
                let first = max(0, Int((centre - 2 * scale).rounded(.up)))
                return first...max(first, min(limit - 1, Int((centre + 2 * scale).rounded(.down))))
            }
        }

        /// The weight of source pixel `i` in output `index`, before renormalising.
        func weight(of i: Int, output index: Int) -> Double {
            switch kind {
            case .identity:
                return 1
            case .area:
                // Its share of the area the output covers.
                let from = Double(index) * scale
                let to = min(Double(limit), Double(index + 1) * scale)
                return (min(to, Double(i + 1)) - max(from, Double(i))) / scale
            case .catmullRom:
                let centre = (Double(index) + 0.5) * scale - 0.5
                return ResampleWeights.cubic((Double(i) - centre) / scale)
            }
        }
    }

    /// The Catmull-Rom kernel (Keys' cubic with a = -0.5).
    static func cubic(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
        if t < 2 { return ((-0.5 * t + 2.5) * t - 4) * t + 2 }
        return 0
    }
}
