import WebImageCore

/// The output buffer of an APNG animation, and the dispose and blend operations on it.
///
/// Pixels are straight-alpha RGBA. "Over" is the PNG specification's alpha compositing
/// of non-premultiplied values, rounded to nearest.
struct APNGCanvas {
    let size: PixelSize
    private(set) var pixels: [UInt8]
    /// What the previous frame's region held before it was drawn, when its dispose
    /// operation is "previous".
    private var saved: (rect: (x: Int, y: Int, width: Int, height: Int), pixels: [UInt8])?
    /// The previous frame's region and dispose operation, applied before the next frame.
    private var pendingDispose: (rect: (x: Int, y: Int, width: Int, height: Int), dispose: UInt8)?

    /// The bytes the canvas and its saved region hold.
    var byteCount: Int { pixels.count + (saved?.pixels.count ?? 0) }

    init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    /// Draws `frame` (its own decoded pixels, packed RGBA) at its place, after applying
    /// the previous frame's dispose operation.
    mutating func draw(_ frame: APNGStructure.Frame, pixels source: ImageBitmap, isFirst: Bool) {
        if let pendingDispose {
            switch pendingDispose.dispose {
            case 1: clear(pendingDispose.rect)
            case 2: if let saved { restore(saved) }
            default: break
            }
        }
        let rect = (x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        // The first frame's "previous" means "background": there is nothing before it.
        let dispose = isFirst && frame.dispose == 2 ? 1 : frame.dispose
        saved = dispose == 2 ? (rect, copy(rect)) : nil
        source.withUnsafeBytes { from in
            for row in 0..<frame.height {
                let sourceRow = row * source.bytesPerRow
                let targetRow = ((frame.y + row) * size.width + frame.x) * 4
                if frame.blend == 0 {
                    // Source: the row replaces the region's row, one copy.
                    pixels.withUnsafeMutableBytes { target in
                        (target.baseAddress! + targetRow).copyMemory(from: from.baseAddress! + sourceRow, byteCount: frame.width * 4)
                    }
                } else {
                    for column in 0..<frame.width {
                        Self.over(from, sourceRow + column * 4, &pixels, targetRow + column * 4)
                    }
                }
            }
        }
        pendingDispose = (rect, dispose)
    }

    /// Source over destination, straight alpha.
    private static func over(_ source: UnsafeRawBufferPointer, _ s: Int, _ target: inout [UInt8], _ t: Int) {
        let sourceAlpha = Int(source[s + 3])
        if sourceAlpha == 255 {
            for channel in 0..<4 { target[t + channel] = source[s + channel] }
            return
        }
        if sourceAlpha == 0 { return }
        let targetAlpha = Int(target[t + 3])
        let remaining = targetAlpha * (255 - sourceAlpha)
        let outAlpha255 = sourceAlpha * 255 + remaining  // out alpha times 255
        for channel in 0..<3 {
            let value = Int(source[s + channel]) * sourceAlpha * 255 + Int(target[t + channel]) * remaining
            target[t + channel] = UInt8((value + outAlpha255 / 2) / outAlpha255)
        }
        target[t + 3] = UInt8((outAlpha255 + 127) / 255)
    }

    private mutating func clear(_ rect: (x: Int, y: Int, width: Int, height: Int)) {
        for row in 0..<rect.height {
            let start = ((rect.y + row) * size.width + rect.x) * 4
            for index in start..<(start + rect.width * 4) { pixels[index] = 0 }
        }
    }

    private func copy(_ rect: (x: Int, y: Int, width: Int, height: Int)) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let start = ((rect.y + row) * size.width + rect.x) * 4
            out.append(contentsOf: pixels[start..<(start + rect.width * 4)])
        }
        return out
    }

    private mutating func restore(_ saved: (rect: (x: Int, y: Int, width: Int, height: Int), pixels: [UInt8])) {
        let rowBytes = saved.rect.width * 4
        for row in 0..<saved.rect.height {
            let start = ((saved.rect.y + row) * size.width + saved.rect.x) * 4
            pixels.replaceSubrange(start..<(start + rowBytes), with: saved.pixels[(row * rowBytes)..<((row + 1) * rowBytes)])
        }
    }
}
