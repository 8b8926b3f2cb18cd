import WebImageCore

/// How a source of a known size becomes the output, decided from its header before any
/// pixel is decoded: the size to decode at (so that a JPEG scales in the DCT and nothing
/// larger than needed is ever held), the size to scale to, and the part a fill keeps.
///
/// Nothing is enlarged: a source smaller than the box keeps its pixels (a fill still
/// cuts it to the box where it is larger than the box on one side).
struct ResizePlan: Equatable {
    /// The longer side to ask the decoder for; `nil` decodes at full size.
    let decodePixelSize: Int?
    /// The size the decoded image is scaled to.
    let scaledSize: PixelSize
    /// For a fill: the size cut out of the scaled image (at most the scaled size).
    let cropSize: PixelSize?

    /// The size of the output.
    var outputSize: PixelSize { cropSize ?? scaledSize }

    /// - Parameter source: the size the image is shown at (after its orientation).
    init(source: PixelSize, options: ProcessingOptions) {
        let width = Double(source.width)
        let height = Double(source.height)
        // A side of 0 is left free: its scale is "anything".
        let scaleX = options.width > 0 ? Double(options.width) / width : nil
        let scaleY = options.height > 0 ? Double(options.height) / height : nil
        func scaled(_ scale: Double) -> PixelSize {
            PixelSize(
                width: min(source.width, max(1, Int((width * scale).rounded()))),
                height: min(source.height, max(1, Int((height * scale).rounded()))))
        }
        let decodeScale: Double
        switch (options.resizeMode, scaleX, scaleY) {
        case (_, nil, nil):
            decodeScale = 1
            scaledSize = source
            cropSize = nil
        case (.fit, _, _), (.fill, nil, _), (.fill, _, nil):
            // One free side makes a fill a fit: nothing is left to cut.
            decodeScale = min(1, scaleX ?? .infinity, scaleY ?? .infinity)
            scaledSize = scaled(decodeScale)
            cropSize = nil
        case (.fill, let scaleX?, let scaleY?):
            decodeScale = min(1, max(scaleX, scaleY))
            let covering = scaled(decodeScale)
            scaledSize = covering
            cropSize = PixelSize(width: min(options.width, covering.width), height: min(options.height, covering.height))
        case (.force, _, _):
            let target = PixelSize(
                width: scaleX.map { _ in min(options.width, source.width) }
                    ?? min(source.width, max(1, Int((width * min(1, scaleY ?? 1)).rounded()))),
                height: scaleY.map { _ in min(options.height, source.height) }
                    ?? min(source.height, max(1, Int((height * min(1, scaleX ?? 1)).rounded()))))
            decodeScale = max(Double(target.width) / width, Double(target.height) / height)
            scaledSize = target
            cropSize = nil
        }
        decodePixelSize = Self.decodeSide(source: source, covering: scaledSize, scale: decodeScale)
    }

    /// The smallest longer side whose decode (by the decoders' own rounding,
    /// `DecodeOptions.targetSize`) covers `target` on both sides: the decode then lands on
    /// the target exactly when the aspect ratio is kept, and nothing is scaled twice.
    /// `nil` when only the full size covers it.
    static func decodeSide(source: PixelSize, covering target: PixelSize, scale: Double) -> Int? {
        guard scale < 1 else { return nil }
        let first = max(1, Int((Double(source.longerSide) * scale).rounded(.down)))
        for side in first..<(first + 3) where side < source.longerSide {
            let decoded = DecodeOptions(maxPixelSize: side).targetSize(for: source)
            if decoded.width >= target.width, decoded.height >= target.height { return side }
        }
        return nil
    }

    /// Where a fill's cut of `crop` sits in an image of `scaled`, by `gravity`;
    /// ``ProcessingOptions/Gravity/smart`` is placed by `SmartCrop` and is centred here.
    static func cropOrigin(scaled: PixelSize, crop: PixelSize, gravity: ProcessingOptions.Gravity) -> (x: Int, y: Int) {
        let spareX = scaled.width - crop.width
        let spareY = scaled.height - crop.height
        switch gravity {
        case .center, .smart: return (spareX / 2, spareY / 2)
        case .north: return (spareX / 2, 0)
        case .south: return (spareX / 2, spareY)
        case .east: return (spareX, spareY / 2)
        case .west: return (0, spareY / 2)
        }
    }
}
