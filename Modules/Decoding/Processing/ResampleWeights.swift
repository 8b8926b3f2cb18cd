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
/// - `scale < 1` (an enlargement): Catmull-Rom unstretched, interpolating between the
///   four nearest source samples.
struct ResampleWeights: Sendable {
    static let one = 1 << 14

    let sourceCount: Int
    let targetCount: Int
    let taps: Int
    /// For each output, its first source index (`starts[i] + taps <= sourceCount`).
    let starts: [Int32]
    /// `targetCount * taps` weights of 2^14 fixed point; each output's sum to 2^14.
    let weights: [Int16]

    /// The weights from `source` to `target` samples. `tapMultiple` rounds the tap
    /// count up to a multiple of it (with zero weights) where the source is that long,
    /// so a vector loop that reads several taps at once never needs a tail.
    init(source: Int, target: Int, tapMultiple: Int = 1) {
        precondition(target > 0 && source > 0 && tapMultiple > 0)
        sourceCount = source
        targetCount = target
        let filter = Filter(source: source, target: target)
        // The widest window first, to give every output its tap count; then the
        // weights, written straight into one flat array (no array per output: a decode
        // to fit builds these each time).
        var widest = 1
        for index in 0..<target { widest = max(widest, filter.window(of: index).count) }
        let taps = min(source, (widest + tapMultiple - 1) / tapMultiple * tapMultiple)
        self.taps = taps
        var starts = [Int32](repeating: 0, count: target)
        var weights = [Int16](repeating: 0, count: target * taps)
        // Unsafe buffers in the loop: checked array writes made this a fifth of a small
        // resize's time.
        let row = UnsafeMutableBufferPointer<Double>.allocate(capacity: taps)
        defer { row.deallocate() }
        starts.withUnsafeMutableBufferPointer { starts in
            weights.withUnsafeMutableBufferPointer { weights in
                for index in 0..<target {
                    let window = filter.window(of: index)
                    // Shift the window left where it would run past the end; pad with zeros.
                    let start = min(window.lowerBound, source - taps)
                    starts[index] = Int32(start)
                    row.initialize(repeating: 0)
                    var sum = 0.0
                    for i in window {
                        let weight = filter.weight(of: i, output: index)
                        row[i - start] = weight
                        sum += weight
                    }
                    let scale = filter.renormalises && sum != 0 ? Double(Self.one) / sum : Double(Self.one)
                    // 2^14 fixed point summing to exactly 2^14: the rounding error goes to
                    // the largest weight.
                    let output = UnsafeMutableBufferPointer(rebasing: weights[(index * taps)..<((index + 1) * taps)])
                    var total = 0
                    var largest = 0
                    for k in 0..<taps {
                        let fixed = Self.roundedToInt(row[k] * scale)
                        output[k] = Int16(clamping: fixed)
                        total += fixed
                        if fixed > Int(output[largest]) { largest = k }
                    }
                    output[largest] = Int16(clamping: Int(output[largest]) + Self.one - total)
                }
            }
        }
        self.starts = starts
        self.weights = weights
    }

    /// One axis's filter, chosen by how much it shrinks.
    private struct Filter {
        enum Kind { case identity, area, catmullRom }
        let kind: Kind
        let scale: Double
        /// How far the cubic is stretched: by the scale when shrinking (so it
        /// low-passes), not at all when enlarging (so it interpolates).
        let stretch: Double
        let limit: Int

        init(source: Int, target: Int) {
            scale = Double(source) / Double(target)
            stretch = max(1, scale)
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
                let first = min(limit - 1, max(0, Int((centre - 2 * stretch).rounded(.up))))
                return first...max(first, min(limit - 1, Int((centre + 2 * stretch).rounded(.down))))
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
                return ResampleWeights.cubic((Double(i) - centre) / stretch)
            }
        }
    }

    /// `value` rounded half away from zero, as `rounded()` does, without a call into
    /// libm per weight.
    @inline(__always)
    static func roundedToInt(_ value: Double) -> Int {
        Int(value < 0 ? value - 0.5 : value + 0.5)
    }

    /// The Catmull-Rom kernel (Keys' cubic with a = -0.5).
    static func cubic(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
        if t < 2 { return ((-0.5 * t + 2.5) * t - 4) * t + 2 }
        return 0
    }
}
