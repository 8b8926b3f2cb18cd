internal import CWebImageDecoding
import WebImageCore

/// Scales an image down while its rows stream in, so the full-size image never has to
/// exist: feed source rows top to bottom, read the result at the end.
///
/// A separable filter in fixed point: each source row is filtered horizontally once
/// (C loops with SSE2 and AVX2 versions) into a ring of as many rows as the vertical
/// window has taps; an output row is gathered from that ring and written as soon as its
/// last source row has come. The filter per axis is in ``ResampleWeights``: area
/// averaging for reductions of 2x and more, Catmull-Rom below (the last step after a
/// JPEG's DCT scaling).
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
    private let layout: ResampleLayout
    private let kernel: ResampleKernel
    /// One source row premultiplied by alpha, 16 bits a sample less 32768 (RGBA only).
    private let premultiplied: UnsafeMutablePointer<Int16>?
    /// The last `kernel.rowTaps` source rows filtered horizontally; source row r is in
    /// slot r % `kernel.rowTaps`.
    private let ring: UnsafeMutablePointer<Int16>
    /// The rows one output reads, an even count (the C loop takes them two by two).
    private let window: UnsafeMutablePointer<UnsafePointer<Int16>?>
    private let windowCount: Int
    /// 32-bit sums of one output row, before the division by alpha (RGBA only).
    private let sums: UnsafeMutablePointer<Int32>?
    /// Samples of one filtered row: a pixel has 1 (gray) or 4 (RGBA).
    private let samplesPerRow: Int
    private let outputStride: Int
    private var nextOutput = 0
    private var sourceRow = 0
    private let output: PixelStorage

    /// A resampler from `source` to `target`; `opaque` promises that every RGBA row
    /// fed has alpha 255 (the output's alpha is then 255 whatever the rows say), and
    /// `allocation` says how the output's pixels are allocated.
    package init(
        source: PixelSize, target: PixelSize, pixelFormat: PixelFormat, opaque: Bool = false, allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) {
        // Enlarging works too (the weights interpolate), for a resize that asks for it.
        precondition(target.width > 0 && target.height > 0 && source.width > 0 && source.height > 0)
        sourceSize = source
        targetSize = target
        layout = pixelFormat == .gray8 ? .gray : opaque ? .opaqueRGBA : .rgba
        kernel = ResampleKernel.shared(source: source, target: target, layout: layout)
        windowCount = kernel.windowCount
        let taps = kernel.rowTaps
        samplesPerRow = target.width * (layout == .gray ? 1 : 4)
        outputStride = target.width * pixelFormat.bytesPerPixel
        output = try PixelStorage.packed(width: target.width, height: target.height, pixelFormat: pixelFormat, allocation: allocation)
        premultiplied = layout == .rgba ? .allocate(capacity: source.width * 4) : nil
        sums = layout == .rgba ? .allocate(capacity: samplesPerRow) : nil
        // Zeroed so that no slot is ever read uninitialised (`finish` zeroes the rows
        // never fed itself).
        ring = .allocate(capacity: taps * samplesPerRow)
        ring.initialize(repeating: 0, count: taps * samplesPerRow)
        window = .allocate(capacity: windowCount)
        window.initialize(repeating: nil, count: windowCount)
    }

    deinit {
        premultiplied?.deallocate()
        sums?.deallocate()
        ring.deallocate()
        window.deallocate()
    }

    /// Feeds the next source row (`sourceSize.width` pixels in the target's format).
    package func consume(row: UnsafeRawPointer) {
        guard sourceRow < sourceSize.height else { return }
        let input = row.assumingMemoryBound(to: UInt8.self)
        let filtered = slot(sourceRow)
        let width = Int32(targetSize.width)
        let taps = Int32(kernel.columnTaps)
        switch layout {
        case .rgba:
            wi_resample_premultiply(input, sourceSize.width, premultiplied)
            wi_resample_row_rgba(premultiplied, width, kernel.columnStarts, kernel.columnWeights, taps, kernel.columnPlan, filtered)
        case .opaqueRGBA:
            wi_resample_row_rgbx(input, width, kernel.columnStarts, kernel.columnWeights, taps, kernel.columnPlan, filtered)
        case .gray:
            wi_resample_row_gray(input, width, kernel.columnStarts, kernel.columnWeights, taps, filtered)
        }
        sourceRow += 1
        while nextOutput < targetSize.height, Int(kernel.rowStarts[nextOutput]) + kernel.rowTaps <= sourceRow { emit() }
    }

    /// The scaled image. Source rows never fed (a partial image) count as zero, so the
    /// output rows that needed them are darker or more transparent; an output row none
    /// of whose source rows came is zero.
    package func finish() -> ImageBitmap {
        // Zero the slots of rows never fed, each once its older row is out of every
        // window still to come.
        var cleared = sourceRow
        while nextOutput < targetSize.height {
            let end = min(sourceSize.height, Int(kernel.rowStarts[nextOutput]) + kernel.rowTaps)
            while cleared < end {
                slot(cleared).update(repeating: 0, count: samplesPerRow)
                cleared += 1
            }
            emit()
        }
        return ImageBitmap(
            width: targetSize.width, height: targetSize.height,
            pixelFormat: layout == .gray ? .gray8 : .rgba8, bytesPerRow: outputStride, storage: output
        )
    }

    private func slot(_ sourceRow: Int) -> UnsafeMutablePointer<Int16> {
        ring + (sourceRow % kernel.rowTaps) * samplesPerRow
    }

    /// Writes output row `nextOutput` from the ring.
    private func emit() {
        let start = Int(kernel.rowStarts[nextOutput])
        for k in 0..<windowCount { window[k] = UnsafePointer(slot(start + min(k, kernel.rowTaps - 1))) }
        let taps = Int32(kernel.rowTaps)
        let weights = kernel.rowPairs + nextOutput * windowCount / 2
        output.withUnsafeMutableBytes { bytes in
            let destination = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + nextOutput * outputStride
            switch layout {
            case .rgba: wi_resample_column_rgba(window, weights, taps, targetSize.width, sums, destination)
            case .opaqueRGBA: wi_resample_column_bytes(window, weights, taps, samplesPerRow, 1, destination)
            case .gray: wi_resample_column_bytes(window, weights, taps, samplesPerRow, 0, destination)
            }
        }
        nextOutput += 1
    }
}

extension RowDownsampler {
    /// Scales a whole bitmap down to `target`, in storage allocated as `allocation`
    /// says; an opaque RGBA bitmap (checked first, a read of its alpha bytes) takes the
    /// opaque path.
    package static func downsample(
        _ bitmap: ImageBitmap, to target: PixelSize, allocation: PixelAllocation = .still
    ) throws(ImageDecodingError) -> ImageBitmap {
        let whole = PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        let sampler = try RowDownsampler(
            source: bitmap.size, target: target, pixelFormat: bitmap.pixelFormat, opaque: isOpaque(bitmap, in: whole),
            allocation: allocation)
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
