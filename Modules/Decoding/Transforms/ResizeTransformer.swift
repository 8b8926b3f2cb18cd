import WebImageCore

/// Scales an image to fit in, or to fill, a box; never enlarges unless asked.
///
/// - ``Mode-swift.enum/fit``: the whole image, aspect ratio kept, as large as fits in the box.
/// - ``Mode-swift.enum/fill``: the box's aspect ratio, the centre of the image cut to it,
///   as large as fills the box.
/// - ``Mode-swift.enum/stretch``: exactly the box, each side scaled on its own (the
///   aspect ratio is not kept); a side already shorter than the box's keeps its length.
///
/// An image already smaller than the box keeps its pixels (a fill still cuts it to the
/// box's aspect ratio): enlarging adds bytes, not detail. With `enlarges` it grows to the
/// box all the same, interpolated by Catmull-Rom (an image proxy's `enlarge`). Scaling
/// uses the decoders' resampler: area averaging from 2x, Catmull-Rom below, alpha
/// premultiplied.
/// Animated images have every frame scaled.
///
/// ```swift
/// let thumbnail = ImageRequest(url: url, context: .init(transformers: [ResizeTransformer(width: 200, height: 200, mode: .fill)]))
/// ```
public struct ResizeTransformer: ImageTransforming, Hashable {
    public enum Mode: String, Sendable, Hashable {
        case fit
        case fill
        case stretch
    }

    public let size: PixelSize
    public let mode: Mode
    /// Whether an image smaller than the box grows to it.
    public let enlarges: Bool

    /// A box of `width` x `height` pixels (each at least 1); `enlarges` lets an image
    /// smaller than the box grow to it.
    public init(width: Int, height: Int, mode: Mode = .fit, enlarges: Bool = false) {
        precondition(width > 0 && height > 0, "a resize box needs a positive size")
        size = PixelSize(width: width, height: height)
        self.mode = mode
        self.enlarges = enlarges
    }

    public var identifier: String { "resize(\(mode.rawValue),\(size)\(enlarges ? ",enlarging" : ""))" }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        let plan = self.plan(for: image.size)
        return try RegionResampler.apply(plan.region, target: plan.target, to: image, enlarging: enlarges)
    }

    /// The source region read and the size it becomes, for an image of `source`.
    public func plan(for source: PixelSize) -> (region: PixelRect, target: PixelSize) {
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        let scaleX = Double(size.width) / Double(source.width)
        let scaleY = Double(size.height) / Double(source.height)
        switch mode {
        case .fit:
            let scale = min(enlarges ? .infinity : 1, scaleX, scaleY)
            return (whole, scaled(source, by: scale))
        case .fill:
            // Cut the centre to the box's aspect ratio, then scale that down to the box.
            let cover = max(scaleX, scaleY)
            let cutWidth = min(source.width, max(1, Int((Double(size.width) / cover).rounded())))
            let cutHeight = min(source.height, max(1, Int((Double(size.height) / cover).rounded())))
            let region = PixelRect(
                x: (source.width - cutWidth) / 2, y: (source.height - cutHeight) / 2, width: cutWidth, height: cutHeight)
            if enlarges { return (region, size) }
            let target = PixelSize(width: min(size.width, cutWidth), height: min(size.height, cutHeight))
            return (region, target)
        case .stretch:
            if enlarges { return (whole, size) }
            return (whole, PixelSize(width: min(size.width, source.width), height: min(size.height, source.height)))
        }
    }

    private func scaled(_ source: PixelSize, by scale: Double) -> PixelSize {
        guard scale != 1, enlarges || scale < 1 else { return source }
        let grown = PixelSize(
            width: max(1, Int((Double(source.width) * scale).rounded())), height: max(1, Int((Double(source.height) * scale).rounded())))
        return enlarges ? grown : PixelSize(width: min(source.width, grown.width), height: min(source.height, grown.height))
    }
}
