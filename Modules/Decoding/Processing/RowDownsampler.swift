internal import CWebImageDecoding
import WebImageCore

/// Scales an image down while its rows stream in, so the full-size image never has to
/// exist: feed source rows top to bottom, read the result at the end.
///
/// A separable filter in fixed point: each source row is filtered horizontally once
/// (C loops the compiler vectorises), then added into the few output rows whose
/// windows it falls in; an output row is written as soon as its last source row has
/// come. The filter per axis is in ``ResampleWeights``: area averaging for reductions
/// of 2x and more, Catmull-Rom below (the last step after a JPEG's DCT scaling).
///
/// RGBA is filtered premultiplied by alpha and divided back at the end, so the colour
/// of transparent pixels never bleeds into their neighbours (no dark fringes).
///
/// Only shrinks: the target must be no larger than the source in either direction.
package final class RowDownsampler {
    package let sourceSize: PixelSize
    package let targetSize: PixelSize
    private let channels: Int
    private let hasAlpha: Bool
    private let columns: ResampleWeights
    private let rows: ResampleWeights
    /// One source row premultiplied by alpha, 16 bits a sample (RGBA only).
    private let premultiplied: UnsafeMutablePointer<UInt16>?
    /// One source row filtered horizontally.
    private let filtered: UnsafeMutablePointer<Int16>
    /// The output rows being gathered, `ringSize` of them, reused in turn.
    private let accumulators: UnsafeMutablePointer<Int32>
    private let ringSize: Int
    private let samplesPerRow: Int
    private var nextOutput = 0
    private var sourceRow = 0
    private let output: PixelStorage

    package init(source: PixelSize, target: PixelSize, pixelFormat: PixelFormat) throws(ImageDecodingError) {
        precondition(target.width <= source.width && target.height <= source.height && target.width > 0 && target.height > 0)
        sourceSize = source
        targetSize = target
        channels = pixelFormat.bytesPerPixel
        hasAlpha = pixelFormat == .rgba8
        columns = ResampleWeights(source: source.width, target: target.width)
        rows = ResampleWeights(source: source.height, target: target.height)
        samplesPerRow = target.width * channels
        // Output rows open at once start within one window of each other, and windows
        // clipped at the edges share starts: twice the taps bounds them.
        ringSize = 2 * rows.taps + 1
        output = try PixelStorage.packed(width: target.width, height: target.height, pixelFormat: pixelFormat)
        premultiplied = hasAlpha ? .allocate(capacity: source.width * 4) : nil
        filtered = .allocate(capacity: samplesPerRow)
        accumulators = .allocate(capacity: ringSize * samplesPerRow)
        accumulators.initialize(repeating: 0, count: ringSize * samplesPerRow)
    }

    deinit {
        premultiplied?.deallocate()
        filtered.deallocate()
        accumulators.deallocate()
    }

    /// Feeds the next source row (`sourceSize.width` pixels in the target's format).
    package func consume(row: UnsafeRawPointer) {
        guard sourceRow < sourceSize.height else { return }
        let input = row.assumingMemoryBound(to: UInt8.self)
        columns.starts.withUnsafeBufferPointer { starts in
            columns.weights.withUnsafeBufferPointer { weights in
                let width = Int32(targetSize.width)
                let taps = Int32(columns.taps)
                if let premultiplied {
                    wi_resample_premultiply(input, sourceSize.width, premultiplied)
                    wi_resample_row_rgba(premultiplied, width, starts.baseAddress, weights.baseAddress, taps, filtered)
                } else {
                    wi_resample_row_gray(input, width, starts.baseAddress, weights.baseAddress, taps, filtered)
                }
            }
        }
        let taps = rows.taps
        let source = sourceRow
        rows.weights.withUnsafeBufferPointer { weights in
            var y = nextOutput
            while y < targetSize.height, Int(rows.starts[y]) <= source {
                let k = source - Int(rows.starts[y])
                if k < taps, weights[y * taps + k] != 0 {
                    wi_resample_accumulate(accumulator(y), filtered, weights[y * taps + k], samplesPerRow)
                }
                y += 1
            }
        }
        while nextOutput < targetSize.height, Int(rows.starts[nextOutput]) + taps - 1 <= source { emit() }
        sourceRow += 1
    }

    /// The scaled image; rows never fed stay as their partial sums (zero when none).
    package func finish() -> ImageBitmap {
        while nextOutput < targetSize.height { emit() }
        return ImageBitmap(
            width: targetSize.width, height: targetSize.height,
            pixelFormat: channels == 4 ? .rgba8 : .gray8, bytesPerRow: samplesPerRow, storage: output
        )
    }

    private func accumulator(_ outputRow: Int) -> UnsafeMutablePointer<Int32> {
        accumulators + (outputRow % ringSize) * samplesPerRow
    }

    private func emit() {
        output.withUnsafeMutableBytes { bytes in
            let destination = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + nextOutput * samplesPerRow
            if hasAlpha {
                wi_resample_emit_rgba(accumulator(nextOutput), targetSize.width, destination)
            } else {
                wi_resample_emit_gray(accumulator(nextOutput), samplesPerRow, destination)
            }
        }
        nextOutput += 1
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
