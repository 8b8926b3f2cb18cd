import WebImageCore

/// Places a fill's cut on the busiest part of the image: along the side that is cut,
/// the window with the most edge energy, where a column's (or row's) energy is the sum
/// of luminance differences between each pixel and its right and lower neighbours.
///
/// One pass over the pixels to total each column and row, then one sliding window: linear
/// in the pixels, and cheap beside the decode (it runs on the scaled image). Faces and
/// text are busy, so they tend to stay; a flat sky or wall is what goes.
enum SmartCrop {
    static func origin(in bitmap: ImageBitmap, crop: PixelSize) -> PixelPoint {
        let width = bitmap.width
        let height = bitmap.height
        guard crop.width < width || crop.height < height, bitmap.pixelFormat.bytesPerPixel >= 3 || bitmap.pixelFormat == .gray8
        else { return PixelPoint(x: (width - crop.width) / 2, y: (height - crop.height) / 2) }
        var columns = [Int](repeating: 0, count: width)
        var rows = [Int](repeating: 0, count: height)
        let step = bitmap.pixelFormat.bytesPerPixel
        bitmap.withUnsafeBytes { bytes in
            let stride = bitmap.bytesPerRow
            func luma(_ offset: Int) -> Int {
                step == 1 ? Int(bytes[offset]) * 4 : Int(bytes[offset]) + 2 * Int(bytes[offset + 1]) + Int(bytes[offset + 2])
            }
            for y in 0..<height {
                let row = y * stride
                let below = y + 1 < height ? row + stride : row
                var rowEnergy = 0
                for x in 0..<width {
                    let here = luma(row + x * step)
                    let right = x + 1 < width ? luma(row + (x + 1) * step) : here
                    let energy = abs(here - right) + abs(here - luma(below + x * step))
                    columns[x] += energy
                    rowEnergy += energy
                }
                rows[y] = rowEnergy
            }
        }
        return PixelPoint(x: bestWindow(columns, length: crop.width), y: bestWindow(rows, length: crop.height))
    }

    /// The start of the `length`-long window with the largest sum (the earliest of equals,
    /// the centre when nothing is cut).
    static func bestWindow(_ values: [Int], length: Int) -> Int {
        guard length < values.count else { return 0 }
        var sum = values[0..<length].reduce(0, +)
        var best = (start: 0, sum: sum)
        for start in 1...(values.count - length) {
            sum += values[start + length - 1] - values[start - 1]
            if sum > best.sum { best = (start, sum) }
        }
        return best.start
    }
}
