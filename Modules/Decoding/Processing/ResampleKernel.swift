internal import CWebImageDecoding
import Synchronization
import WebImageConcurrency
import WebImageCore

/// How the resampler reads and writes a pixel.
enum ResampleLayout: Hashable, Sendable {
    /// One 8-bit sample.
    case gray
    /// RGBA that may have alpha below 255: filtered premultiplied.
    case rgba
    /// RGBA with alpha 255 throughout: filtered straight from its bytes.
    case opaqueRGBA
}

/// Everything a resampling from one size to another needs before its first row: the
/// weights of both axes, laid out as the C loops read them, in memory of its own that
/// the loops are handed directly (no array access, so no reference counting, per row).
///
/// Making one costs about as much as a fifth of a 400x300 to 256x192 resize, so the
/// last few are kept (``shared(source:target:layout:)``): a server making thumbnails
/// meets the same pair of sizes again and again (one camera's photos, one box).
///
/// `@unchecked Sendable`: written only in `init`, read-only after, freed in `deinit`.
final class ResampleKernel: @unchecked Sendable {
    /// Horizontal and vertical taps per output.
    let columnTaps: Int
    let rowTaps: Int
    /// First source column of each output column's window.
    let columnStarts: UnsafePointer<Int32>
    /// `columnTaps` weights per output column, 2^14 fixed point.
    let columnWeights: UnsafePointer<Int16>
    /// The horizontal weights as the RGBA layouts' AVX2 loops load them; nil elsewhere.
    let columnPlan: UnsafePointer<Int32>?
    /// First source row of each output row's window.
    let rowStarts: UnsafePointer<Int32>
    /// The vertical weights two taps to an `Int32`, `windowCount / 2` per output row.
    let rowPairs: UnsafePointer<Int32>
    /// Rows one output row reads: the vertical taps rounded up to even.
    let windowCount: Int
    /// Bytes of all of the above.
    let byteCount: Int

    init(source: PixelSize, target: PixelSize, layout: ResampleLayout) {
        let columns = ResampleWeights(source: source.width, target: target.width, tapMultiple: Self.tapMultiple(layout))
        let rows = ResampleWeights(source: source.height, target: target.height)
        columnTaps = columns.taps
        rowTaps = rows.taps
        windowCount = (rows.taps + 1) / 2 * 2
        let columnWeights = Self.copy(columns.weights)
        let loop = Self.loop(layout)
        let planSize = wi_resample_plan_size(loop, Int32(target.width), Int32(columns.taps))
        var plan: UnsafeMutablePointer<Int32>?
        if planSize > 0 {
            plan = .allocate(capacity: planSize)
            wi_resample_plan(loop, columnWeights, Int32(target.width), Int32(columns.taps), plan)
        }
        let rowWeights = Self.copy(rows.weights)
        defer { rowWeights.deallocate() }
        let pairCount = target.height * windowCount / 2
        let pairs = UnsafeMutablePointer<Int32>.allocate(capacity: pairCount)
        wi_resample_pair_weights(rowWeights, target.height, Int32(rows.taps), pairs)
        columnStarts = UnsafePointer(Self.copy(columns.starts))
        self.columnWeights = UnsafePointer(columnWeights)
        columnPlan = plan.map { UnsafePointer($0) }
        rowStarts = UnsafePointer(Self.copy(rows.starts))
        rowPairs = UnsafePointer(pairs)
        byteCount = columns.starts.count * 4 + columns.weights.count * 2 + planSize * 4 + rows.starts.count * 4 + pairCount * 4
    }

    deinit {
        columnStarts.deallocate()
        columnWeights.deallocate()
        columnPlan?.deallocate()
        rowStarts.deallocate()
        rowPairs.deallocate()
    }

    /// What the layout's horizontal loop reads its taps in: its windows are padded to a
    /// multiple of it, so that the vector loops need no tail.
    static func tapMultiple(_ layout: ResampleLayout) -> Int {
        Int(wi_resample_tap_multiple(loop(layout)))
    }

    /// The C loops' name for the layout.
    private static func loop(_ layout: ResampleLayout) -> wi_resample_layout {
        switch layout {
        case .gray: WI_RESAMPLE_GRAY
        case .rgba: WI_RESAMPLE_RGBA
        case .opaqueRGBA: WI_RESAMPLE_OPAQUE_RGBA
        }
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutablePointer<Element> {
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: max(1, array.count))
        _ = UnsafeMutableBufferPointer(start: memory, count: array.count).initialize(from: array)
        return memory
    }

    private struct Key: Hashable {
        let source: PixelSize
        let target: PixelSize
        let layout: ResampleLayout
    }

    /// Kernels kept, at most 1 MiB of them; one over 128 KiB (a large target) is made
    /// each time. When full, all are dropped: the working set of a server is a few
    /// pairs of sizes, and refilling costs one kernel each.
    private static let kept = Locked<(kernels: [Key: ResampleKernel], bytes: Int)>(([:], 0))
    static let keptByteLimit = 1 << 20
    static let largestKept = 128 << 10

    /// The kernel for these sizes, made now or kept from an earlier resampling.
    static func shared(source: PixelSize, target: PixelSize, layout: ResampleLayout) -> ResampleKernel {
        let key = Key(source: source, target: target, layout: layout)
        if let kernel = kept.withLock({ $0.kernels[key] }) { return kernel }
        let kernel = ResampleKernel(source: source, target: target, layout: layout)
        guard kernel.byteCount <= largestKept else { return kernel }
        kept.withLock { kept in
            if kept.bytes + kernel.byteCount > keptByteLimit { kept = ([:], 0) }
            if kept.kernels.updateValue(kernel, forKey: key) == nil { kept.bytes += kernel.byteCount }
        }
        return kernel
    }
}
