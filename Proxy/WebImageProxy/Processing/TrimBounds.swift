import WebImageCore
import WebImageDecoding

/// Finds what `t` (trim) keeps: the bounding box of the pixels that differ from the
/// background, as libvips's `find_trim` finds it for imgproxy.
///
/// Transparency is first flattened over magenta (255, 0, 255), as imgproxy flattens it,
/// so transparent borders are trimmed as magenta. The background is the option's colour,
/// or the top-left pixel's. Each pixel is the 3x3 median of its neighbourhood, channel by
/// channel (edges repeated), so JPEG noise and a stray pixel do not count as content; a
/// pixel is content when any channel differs from the background's by more than the
/// threshold.
///
/// The search runs from each edge inward and stops at the first row or column with
/// content: work is the border's area, and the whole image only when it is all
/// background.
enum TrimBounds {
    /// The box to keep; `nil` when nothing is trimmed: the image is all background, has
    /// nothing around its content, or is smaller than 3x3.
    static func find(in bitmap: ImageBitmap, _ trim: ProcessingOptions.Trim) -> PixelRect? {
        let width = bitmap.width
        let height = bitmap.height
        guard width >= 3, height >= 3, bitmap.pixelFormat == .rgba8 else { return nil }
        return bitmap.withUnsafeBytes { bytes -> PixelRect? in
            let stride = bitmap.bytesPerRow
            let magenta: [Int] = [255, 0, 255]
            /// Channel `c` of the pixel at (`x`, `y`), flattened over magenta.
            func flat(_ x: Int, _ y: Int, _ c: Int) -> Int {
                let at = y * stride + x * 4
                let alpha = Int(bytes[at + 3])
                return (Int(bytes[at + c]) * alpha + magenta[c] * (255 - alpha) + 127) / 255
            }
            let background =
                trim.color.map { [Int($0.red), Int($0.green), Int($0.blue)] } ?? [flat(0, 0, 0), flat(0, 0, 1), flat(0, 0, 2)]
            var window = [Int](repeating: 0, count: 9)
            func isContent(_ x: Int, _ y: Int) -> Bool {
                for c in 0..<3 {
                    var n = 0
                    for dy in -1...1 {
                        let row = min(max(y + dy, 0), height - 1)
                        for dx in -1...1 {
                            window[n] = flat(min(max(x + dx, 0), width - 1), row, c)
                            n += 1
                        }
                    }
                    window.sort()
                    if Double(abs(window[4] - background[c])) > trim.threshold { return true }
                }
                return false
            }
            func rowHasContent(_ y: Int) -> Bool { (0..<width).contains { isContent($0, y) } }
            guard let top = (0..<height).first(where: rowHasContent),
                let bottom = (top..<height).reversed().first(where: rowHasContent)
            else { return nil }
            func columnHasContent(_ x: Int) -> Bool { (top...bottom).contains { isContent(x, $0) } }
            let left = (0..<width).first(where: columnHasContent) ?? 0
            let right = (left..<width).reversed().first(where: columnHasContent) ?? width - 1
            var box = PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            if trim.equalHorizontal { (box.x, box.width) = equalMargins(box.x, box.width, of: width) }
            if trim.equalVertical { (box.y, box.height) = equalMargins(box.y, box.height, of: height) }
            return box == PixelRect(x: 0, y: 0, width: width, height: height) ? nil : box
        }
    }

    /// A span of `length` at `start` within `total`, grown so that as much is cut before
    /// it as after: the smaller of the two margins.
    private static func equalMargins(_ start: Int, _ length: Int, of total: Int) -> (start: Int, length: Int) {
        let end = total - start - length
        return (min(start, end), total - 2 * min(start, end))
    }
}
