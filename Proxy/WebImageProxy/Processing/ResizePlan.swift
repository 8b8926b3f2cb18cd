import WebImageCore

/// How a source of a known size becomes the output, decided from its header before any
/// pixel is decoded, by imgproxy's rules and rounding: the cut of the source (`c`), the
/// size to decode at (so that a JPEG scales in the DCT and nothing larger than needed is
/// held), the size to scale to, the cut of the scaled image to the box (`fill`), and the
/// canvases it is then placed on (`ex`, `exar`).
///
/// Every size and offset is computed as imgproxy computes it: shrink factors per side,
/// rounded half away from zero when applied to a size, offsets rounded half to even, so
/// that a URL moved from imgproxy gives an image of the same size cut at the same place.
struct ResizePlan: Equatable {
    /// A cut: its size, and where it sits in the image it is cut from; `origin` is `nil`
    /// for a smart cut, placed by the pixels (`SmartCrop`).
    struct Cut: Equatable {
        let size: PixelSize
        let origin: PixelPoint?
    }

    /// A canvas the image is placed on: its size, and the image's place on it.
    struct Canvas: Equatable {
        let size: PixelSize
        let origin: PixelPoint
    }

    /// The cut of the source (its shown orientation) before anything is scaled.
    let sourceCut: Cut?
    /// The longer side to ask the decoder for; `nil` decodes at full size.
    let decodePixelSize: Int?
    /// The size the (cut) source is scaled to.
    let scaledSize: PixelSize
    /// The cut of the scaled image to the box.
    let resultCut: Cut?
    /// The canvases the result is placed on, in order (the box's size, then the box's
    /// aspect ratio, then the padding).
    let canvases: [Canvas]

    /// The size of the output.
    var outputSize: PixelSize { canvases.last?.size ?? resultCut?.size ?? scaledSize }

    /// - Parameter source: the size the image is shown at (after its orientation).
    init(source: PixelSize, options: ProcessingOptions) {
        let crop = options.crop
        let cropWidth = crop.map { Self.cropSide(source.width, $0.width) } ?? 0
        let cropHeight = crop.map { Self.cropSide(source.height, $0.height) } ?? 0
        sourceCut = Self.cut(
            of: source, to: PixelSize(width: cropWidth, height: cropHeight), gravity: crop?.gravity ?? options.gravity, dpr: 1)
        let toScale = sourceCut?.size ?? source

        let scale = Scale(toScale: toScale, options: options)
        scaledSize = PixelSize(
            width: max(1, Self.scaled(toScale.width, by: scale.width)), height: max(1, Self.scaled(toScale.height, by: scale.height)))
        let sizes = TargetSizes(scaled: scaledSize, scale: scale, options: options)
        resultCut = Self.cut(of: scaledSize, to: sizes.resultCut, gravity: options.gravity, dpr: scale.dpr)

        var canvases: [Canvas] = []
        var image = resultCut?.size ?? scaledSize
        let extensions = [(options.extend, sizes.target), (options.extendAspectRatio, sizes.aspectRatioCanvas)]
        for case (let gravity?, let size) in extensions {
            guard let canvas = Self.canvas(for: image, size: size, gravity: gravity, dpr: scale.dpr) else { continue }
            canvases.append(canvas)
            image = canvas.size
        }
        if let padding = options.padding {
            // Scaled by the pixel ratio, rounded half to even, as imgproxy does.
            let (top, right, bottom, left) = (
                Self.scaledToEven(padding.top, by: scale.dpr), Self.scaledToEven(padding.right, by: scale.dpr),
                Self.scaledToEven(padding.bottom, by: scale.dpr), Self.scaledToEven(padding.left, by: scale.dpr)
            )
            if top + right + bottom + left > 0 {
                canvases.append(
                    Canvas(
                        size: PixelSize(width: image.width + left + right, height: image.height + top + bottom),
                        origin: PixelPoint(x: left, y: top)))
            }
        }
        self.canvases = canvases

        // The decode may scale down only when nothing is cut from the source first: a
        // cut is placed in the source's own pixels.
        let decodeScale = sourceCut == nil ? max(scale.width, scale.height) : 1
        decodePixelSize = Self.decodeSide(source: source, covering: scaledSize, scale: decodeScale)
    }

    /// The shrink factors per side and the device pixel ratio in effect, by imgproxy's
    /// rules: a free side follows the other, fit takes the larger shrink, fill the
    /// smaller; zoom divides; without enlarging no side grows (and the ratio shrinks to
    /// what the source allows); a minimum side overrides; the ratio multiplies last.
    struct Scale {
        let width: Double
        let height: Double
        let dpr: Double

        init(toScale source: PixelSize, options: ProcessingOptions) {
            let sourceWidth = Double(source.width)
            let sourceHeight = Double(source.height)
            let boxWidth = options.width != 0 ? Double(options.width) : sourceWidth
            let boxHeight = options.height != 0 ? Double(options.height) : sourceHeight
            var shrinkX = boxWidth != sourceWidth ? sourceWidth / boxWidth : 1
            var shrinkY = boxHeight != sourceHeight ? sourceHeight / boxHeight : 1
            if shrinkX != 1 || shrinkY != 1 {
                var mode = options.resizeMode
                if mode == .auto {
                    // Both landscape (or square) or both portrait: fill; otherwise fit.
                    let sameShape = (sourceWidth >= sourceHeight) == (boxWidth >= boxHeight)
                    mode = sameShape ? .fill : .fit
                }
                if options.width == 0, mode != .force {
                    shrinkX = shrinkY
                } else if options.height == 0, mode != .force {
                    shrinkY = shrinkX
                } else if mode == .fit {
                    shrinkX = max(shrinkX, shrinkY)
                    shrinkY = shrinkX
                } else if mode == .fill || mode == .fillDown {
                    shrinkX = min(shrinkX, shrinkY)
                    shrinkY = shrinkX
                }
            }
            shrinkX /= options.zoomWidth
            shrinkY /= options.zoomHeight
            var dpr = options.dpr
            if !options.enlarge {
                let least = min(shrinkX, shrinkY)
                if least < 1 {
                    shrinkX /= least
                    shrinkY /= least
                    // The box cannot be reached: a ratio below 1 would move further from
                    // it. An extended canvas keeps its composition whatever the ratio.
                    if options.extend == nil { dpr /= least }
                }
                dpr = min(dpr, min(shrinkX, shrinkY))
            }
            if options.minWidth > 0 {
                let least = sourceWidth / Double(options.minWidth)
                if least < shrinkX {
                    shrinkY /= shrinkX / least
                    shrinkX = least
                }
            }
            if options.minHeight > 0 {
                let least = sourceHeight / Double(options.minHeight)
                if least < shrinkY {
                    shrinkX /= shrinkY / least
                    shrinkY = least
                }
            }
            shrinkX = min(shrinkX / dpr, sourceWidth)
            shrinkY = min(shrinkY / dpr, sourceHeight)
            width = 1 / shrinkX
            height = 1 / shrinkY
            self.dpr = dpr
        }
    }

    /// The box in output pixels, the cut of the scaled image to it, and the canvas of
    /// the box's aspect ratio.
    struct TargetSizes {
        let target: PixelSize
        let resultCut: PixelSize
        let aspectRatioCanvas: PixelSize

        init(scaled: PixelSize, scale: Scale, options: ProcessingOptions) {
            target = PixelSize(
                width: ResizePlan.scaled(options.width, by: scale.dpr * options.zoomWidth),
                height: ResizePlan.scaled(options.height, by: scale.dpr * options.zoomHeight))
            let (targetWidth, targetHeight) = (Double(target.width), Double(target.height))
            if options.resizeMode == .fillDown, !options.enlarge {
                // A source smaller than the box is cut to the box's aspect ratio.
                let growX = targetWidth / Double(scaled.width)
                let growY = targetHeight / Double(scaled.height)
                if growX > growY, growX > 1 {
                    resultCut = PixelSize(width: scaled.width, height: ResizePlan.scaled(scaled.width, by: targetHeight / targetWidth))
                } else if growY > growX, growY > 1 {
                    resultCut = PixelSize(width: ResizePlan.scaled(scaled.height, by: targetWidth / targetHeight), height: scaled.height)
                } else {
                    resultCut = target
                }
            } else {
                resultCut = target
            }
            var canvas = PixelSize(width: 0, height: 0)
            if options.extendAspectRatio != nil, target.width > 0, target.height > 0 {
                let out = PixelSize(
                    width: ResizePlan.minNonZero(scaled.width, resultCut.width),
                    height: ResizePlan.minNonZero(scaled.height, resultCut.height))
                let growX = targetWidth / Double(out.width)
                let growY = targetHeight / Double(out.height)
                if growY > growX {
                    canvas = PixelSize(width: out.width, height: ResizePlan.scaled(out.width, by: targetHeight / targetWidth))
                } else if growX > growY {
                    canvas = PixelSize(width: ResizePlan.scaled(out.height, by: targetWidth / targetHeight), height: out.height)
                }
            }
            aspectRatioCanvas = canvas
        }
    }

    /// A crop argument as a side: 0 is none, 1 or more is pixels, below 1 a fraction
    /// (at least one pixel).
    static func cropSide(_ side: Int, _ argument: Double) -> Int {
        if argument == 0 { return 0 }
        if argument >= 1 { return Int(argument) }
        return max(1, scaled(side, by: argument))
    }

    /// The cut of `size` out of `image` (a side of 0 keeps the image's), placed by
    /// `gravity`; `nil` when it keeps the whole image.
    static func cut(of image: PixelSize, to size: PixelSize, gravity: ProcessingOptions.Gravity, dpr: Double) -> Cut? {
        guard size.width != 0 || size.height != 0 else { return nil }
        let inner = PixelSize(width: minNonZero(size.width, image.width), height: minNonZero(size.height, image.height))
        guard inner.width < image.width || inner.height < image.height else { return nil }
        if gravity.kind == .smart { return Cut(size: inner, origin: nil) }
        return Cut(size: inner, origin: position(of: inner, in: image, gravity: gravity, dpr: dpr))
    }

    /// The canvas of `size` (a side of 0 keeps the image's) that `image` is placed on by
    /// `gravity`; `nil` when the image already fills it.
    static func canvas(for image: PixelSize, size: PixelSize, gravity: ProcessingOptions.Gravity, dpr: Double) -> Canvas? {
        guard size.width > image.width || size.height > image.height else { return nil }
        let outer = PixelSize(width: size.width > 0 ? size.width : image.width, height: size.height > 0 ? size.height : image.height)
        return Canvas(size: outer, origin: position(of: image, in: outer, gravity: gravity, dpr: dpr))
    }

    /// Where `inner` sits in `outer` by `gravity`, kept inside `outer`: centred (an odd
    /// spare pixel rounded half to even), against the named edges, moved by the offsets
    /// towards the centre; a focus point as near the centre of `inner` as fits.
    static func position(
        of inner: PixelSize, in outer: PixelSize, gravity: ProcessingOptions.Gravity, dpr: Double
    ) -> PixelPoint {
        var left: Int
        var top: Int
        if gravity.kind == .focusPoint {
            left = scaledToEven(outer.width, by: gravity.x) - inner.width / 2
            top = scaledToEven(outer.height, by: gravity.y) - inner.height / 2
        } else {
            let offsetX = abs(gravity.x) >= 1 ? roundedToEven(gravity.x * dpr) : scaledToEven(outer.width, by: gravity.x)
            let offsetY = abs(gravity.y) >= 1 ? roundedToEven(gravity.y * dpr) : scaledToEven(outer.height, by: gravity.y)
            left = roundedToEven(Double(outer.width - inner.width + 1) / 2) + offsetX
            top = roundedToEven(Double(outer.height - inner.height + 1) / 2) + offsetY
            switch gravity.kind {
            case .north, .northEast, .northWest: top = offsetY
            case .south, .southEast, .southWest: top = outer.height - inner.height - offsetY
            default: break
            }
            switch gravity.kind {
            case .east, .northEast, .southEast: left = outer.width - inner.width - offsetX
            case .west, .northWest, .southWest: left = offsetX
            default: break
            }
        }
        return PixelPoint(
            x: max(0, min(left, outer.width - inner.width)), y: max(0, min(top, outer.height - inner.height)))
    }

    /// The first longer side from the scale's own whose decode (by the decoders'
    /// rounding, `DecodeOptions.targetSize`) covers `target` on both sides: the decode then lands on
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

    /// `side` times `scale`, rounded half away from zero; 0 stays 0.
    static func scaled(_ side: Int, by scale: Double) -> Int {
        side == 0 ? 0 : Int((Double(side) * scale).rounded())
    }

    /// `side` times `scale`, rounded half to even; 0 stays 0.
    static func scaledToEven(_ side: Int, by scale: Double) -> Int {
        side == 0 ? 0 : roundedToEven(Double(side) * scale)
    }

    static func roundedToEven(_ value: Double) -> Int {
        Int(value.rounded(.toNearestOrEven))
    }

    /// The smaller of two sides, where 0 means "not given".
    static func minNonZero(_ a: Int, _ b: Int) -> Int {
        a == 0 ? b : b == 0 ? a : min(a, b)
    }
}

/// A pixel position, from the top-left corner.
struct PixelPoint: Equatable {
    let x: Int
    let y: Int
}
