import WebImageCore

/// Scales an image down by area averaging while its rows stream in, so the full-size
/// image never has to exist: feed source rows top to bottom, read the result at the end.
///
/// Each output pixel is the average of the source area it covers, with partial pixels
/// at the edges weighted by how much of them it covers. RGBA is averaged with alpha
/// weighting (colours of transparent pixels do not bleed into their neighbours).
///
/// Only shrinks: the target must be no larger than the source in either direction.
package final class RowDownsampler {
    package let sourceSize: PixelSize
    package let targetSize: PixelSize
    private let channels: Int
    private let hasAlpha: Bool
    /// For each output column, the first source column and the weights of the source
    /// columns it covers.
    private let columnStart: [Int]
    private let columnWeights: [[Float]]
    private let verticalScale: Double
    private var horizontal: [Float]  // one source row resampled horizontally
    private var accumulator: [Float]  // the output row being gathered
    private var accumulatorRow = 0
    private var sourceRow = 0
    private let output: PixelStorage
    private let outputStride: Int

    package init(source: PixelSize, target: PixelSize, pixelFormat: PixelFormat) throws(ImageDecodingError) {
        precondition(target.width <= source.width && target.height <= source.height && target.width > 0 && target.height > 0)
        sourceSize = source
        targetSize = target
        channels = pixelFormat.bytesPerPixel
        hasAlpha = pixelFormat == .rgba8
        let scaleX = Double(source.width) / Double(target.width)
        var starts = [Int]()
        var weights = [[Float]]()
        starts.reserveCapacity(target.width)
        weights.reserveCapacity(target.width)
        for x in 0..<target.width {
            let (first, w) = RowDownsampler.coverage(Double(x) * scaleX, Double(x + 1) * scaleX, limit: source.width)
            starts.append(first)
            weights.append(w.map { Float($0 / scaleX) })
        }
        columnStart = starts
        columnWeights = weights
        verticalScale = Double(source.height) / Double(target.height)
        horizontal = [Float](repeating: 0, count: target.width * channels)
        accumulator = [Float](repeating: 0, count: target.width * channels)
        outputStride = target.width * channels
        output = try PixelStorage.packed(width: target.width, height: target.height, pixelFormat: pixelFormat)
    }

    /// The source pixels `[from, to)` overlaps, as the first index and each overlap.
    private static func coverage(_ from: Double, _ to: Double, limit: Int) -> (Int, [Double]) {
        let first = Int(from.rounded(.down))
        let last = min(limit - 1, Int((to - 1e-9).rounded(.down)))
        var weights = [Double]()
        for i in first...max(first, last) {
            weights.append(min(to, Double(i + 1)) - max(from, Double(i)))
        }
        return (first, weights)
    }

    /// Feeds the next source row (`sourceSize.width` pixels in the target's format).
    package func consume(row: UnsafeRawPointer) {
        guard sourceRow < sourceSize.height else { return }
        resampleHorizontally(row.assumingMemoryBound(to: UInt8.self))
        // This source row covers [sourceRow, sourceRow + 1) in source space; spread it
        // over the output rows whose areas it overlaps.
        let top = Double(sourceRow)
        let bottom = Double(sourceRow + 1)
        while accumulatorRow < targetSize.height {
            let rowTop = Double(accumulatorRow) * verticalScale
            let rowBottom = Double(accumulatorRow + 1) * verticalScale
            let overlap = min(bottom, rowBottom) - max(top, rowTop)
            if overlap > 0 {
                let weight = Float(overlap / verticalScale)
                for i in 0..<accumulator.count { accumulator[i] += horizontal[i] * weight }
            }
            if rowBottom <= bottom + 1e-9 {
                emitAccumulator()
            } else {
                break
            }
        }
        sourceRow += 1
    }

    /// The scaled image; rows never fed stay as their partial sums (zero when none).
    package func finish() -> ImageBitmap {
        while accumulatorRow < targetSize.height { emitAccumulator() }
        return ImageBitmap(
            width: targetSize.width, height: targetSize.height,
            pixelFormat: channels == 4 ? .rgba8 : .gray8, bytesPerRow: outputStride, storage: output
        )
    }

    private func resampleHorizontally(_ row: UnsafePointer<UInt8>) {
        horizontal.withUnsafeMutableBufferPointer { out in
            for x in 0..<targetSize.width {
                let first = columnStart[x]
                let weights = columnWeights[x]
                if hasAlpha {
                    var r: Float = 0
                    var g: Float = 0
                    var b: Float = 0
                    var a: Float = 0
                    for (k, w) in weights.enumerated() {
                        let p = row + (first + k) * 4
                        let wa = w * Float(p[3])
                        r += wa * Float(p[0])
                        g += wa * Float(p[1])
                        b += wa * Float(p[2])
                        a += wa
                    }
                    out[x * 4] = r
                    out[x * 4 + 1] = g
                    out[x * 4 + 2] = b
                    out[x * 4 + 3] = a
                } else {
                    var v: Float = 0
                    for (k, w) in weights.enumerated() { v += w * Float(row[first + k]) }
                    out[x] = v
                }
            }
        }
    }

    private func emitAccumulator() {
        output.withUnsafeMutableBytes { bytes in
            let dest = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + accumulatorRow * outputStride
            for x in 0..<targetSize.width {
                if hasAlpha {
                    let a = accumulator[x * 4 + 3]
                    if a > 0 {
                        for c in 0..<3 { dest[x * 4 + c] = RowDownsampler.clamp(accumulator[x * 4 + c] / a) }
                    } else {
                        dest[x * 4] = 0
                        dest[x * 4 + 1] = 0
                        dest[x * 4 + 2] = 0
                    }
                    dest[x * 4 + 3] = RowDownsampler.clamp(a)
                } else {
                    dest[x] = RowDownsampler.clamp(accumulator[x])
                }
            }
        }
        for i in 0..<accumulator.count { accumulator[i] = 0 }
        accumulatorRow += 1
    }

    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}

extension RowDownsampler {
    /// Scales a whole bitmap down to `target`.
    package static func downsample(_ bitmap: ImageBitmap, to target: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        let sampler = try RowDownsampler(source: bitmap.size, target: target, pixelFormat: bitmap.pixelFormat)
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height { sampler.consume(row: bytes.baseAddress! + y * bitmap.bytesPerRow) }
        }
        return sampler.finish()
    }
}
