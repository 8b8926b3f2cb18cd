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
/// of transparent pixels never bleeds into their neighbours (no dark fringes). An image
/// known to be opaque (a JPEG's rows) skips all of that and is filtered straight from
/// its bytes.
///
/// Only shrinks: the target must be no larger than the source in either direction.
package final class RowDownsampler {
    package let sourceSize: PixelSize
    package let targetSize: PixelSize
    private enum Layout { case gray, rgba, opaqueRGBA }
    private let layout: Layout
    private let columns: ResampleWeights
    private let rows: ResampleWeights
    /// One source row premultiplied by alpha, 16 bits a sample (RGBA only).
    private let premultiplied: UnsafeMutablePointer<UInt16>?
    /// One source row filtered horizontally.
    private let filtered: UnsafeMutablePointer<Int16>
    /// The output rows being gathered, `ringSize` of them, reused in turn.
    private let accumulators: UnsafeMutablePointer<Int32>
    private let ringSize: Int
    /// Samples of one filtered row: a pixel has 1 (gray) or 4 (RGBA).
    private let samplesPerRow: Int
    private let outputStride: Int
    private var nextOutput = 0
    private var sourceRow = 0
    private let output: PixelStorage

    /// A resampler from `source` to `target`; `opaque` promises that every RGBA row
    /// fed has alpha 255 (the output's alpha is then 255 whatever the rows say).
    package init(source: PixelSize, target: PixelSize, pixelFormat: PixelFormat, opaque: Bool = false) throws(ImageDecodingError) {
        precondition(target.width <= source.width && target.height <= source.height && target.width > 0 && target.height > 0)
        sourceSize = source
        targetSize = target
        layout = pixelFormat == .gray8 ? .gray : opaque ? .opaqueRGBA : .rgba
        columns = ResampleWeights(source: source.width, target: target.width)
        rows = ResampleWeights(source: source.height, target: target.height)
        samplesPerRow = target.width * (layout == .gray ? 1 : 4)
        outputStride = target.width * pixelFormat.bytesPerPixel
        // Output rows open at once start within one window of each other, and windows
        // clipped at the edges share starts: twice the taps bounds them.
        ringSize = 2 * rows.taps + 1
        output = try PixelStorage.packed(width: target.width, height: target.height, pixelFormat: pixelFormat)
        premultiplied = layout == .rgba ? .allocate(capacity: source.width * 4) : nil
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
                switch layout {
                case .rgba:
                    wi_resample_premultiply(input, sourceSize.width, premultiplied)
                    wi_resample_row_rgba(premultiplied, width, starts.baseAddress, weights.baseAddress, taps, filtered)
                case .opaqueRGBA:
                    wi_resample_row_rgbx(input, width, starts.baseAddress, weights.baseAddress, taps, filtered)
                case .gray:
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
            pixelFormat: layout == .gray ? .gray8 : .rgba8, bytesPerRow: outputStride, storage: output
        )
    }

    private func accumulator(_ outputRow: Int) -> UnsafeMutablePointer<Int32> {
        accumulators + (outputRow % ringSize) * samplesPerRow
    }

    private func emit() {
        output.withUnsafeMutableBytes { bytes in
            let destination = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + nextOutput * outputStride
            switch layout {
            case .rgba: wi_resample_emit_rgba(accumulator(nextOutput), targetSize.width, destination)
            case .opaqueRGBA: wi_resample_emit_rgbx(accumulator(nextOutput), targetSize.width, destination)
            case .gray: wi_resample_emit_gray(accumulator(nextOutput), samplesPerRow, destination)
            }
        }
        nextOutput += 1
    }
}

extension RowDownsampler {
    /// Scales a whole bitmap down to `target`; an opaque RGBA bitmap (checked first, a
    /// read of its alpha bytes) takes the opaque path.
    package static func downsample(_ bitmap: ImageBitmap, to target: PixelSize) throws(ImageDecodingError) -> ImageBitmap {
        let whole = PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        let sampler = try RowDownsampler(
            source: bitmap.size, target: target, pixelFormat: bitmap.pixelFormat, opaque: isOpaque(bitmap, in: whole))
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height { sampler.consume(row: bytes.baseAddress! + y * bitmap.bytesPerRow) }
        }
        return sampler.finish()
    }

    /// Whether every pixel of `region` of an RGBA bitmap has alpha 255 (a read of its
    /// alpha bytes, far cheaper than the premultiplied path it saves).
    package static func isOpaque(_ bitmap: ImageBitmap, in region: PixelRect) -> Bool {
        guard bitmap.pixelFormat == .rgba8 else { return false }
        return bitmap.withUnsafeBytes { bytes in
            (region.y..<(region.y + region.height)).allSatisfy { y in
                let row = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * bitmap.bytesPerRow + region.x * 4
                return wi_resample_is_opaque(row, region.width) != 0
            }
        }
    }
}
