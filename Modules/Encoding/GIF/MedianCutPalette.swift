import WebImageCore

/// The palette of one GIF frame, by median cut, and the frame's pixels as its indices.
///
/// Colours are counted at 5 bits a channel (32,768 boxes, each remembering the sum of
/// the exact colours that fell in it, so a frame of few colours keeps them exactly). The
/// box of colours with the widest spread, weighted by how many pixels it holds, is cut
/// at its pixel median along its widest channel until there are as many boxes as
/// entries allowed; each entry is the mean colour of its box. Pixels take the nearest
/// entry, with no dithering (dithering changes from frame to frame and shimmers in an
/// animation). A pixel with alpha under 128 takes the transparent index.
///
/// Not `Sendable`: one encode owns it; its tables are reused frame after frame.
final class MedianCutPalette {
    /// The alpha below which a pixel is written transparent (GIF has no partial alpha).
    static let alphaThreshold: UInt8 = 128

    private var counts = [Int](repeating: 0, count: 1 << 15)
    private var sums = [Int](repeating: 0, count: 3 << 15)
    private var nearest = [Int16](repeating: -1, count: 1 << 15)

    /// The palette chosen for the last frame, as RGB triples (padded by the writer).
    private(set) var colors: [UInt8] = []
    /// The index of transparent pixels in the last frame, `nil` when it has none.
    private(set) var transparentIndex: UInt8?

    /// Chooses the palette of `bitmap` (at most 256 entries, one kept for transparency
    /// when a pixel needs it) and writes its pixels' indices into `indices`
    /// (`width * height` bytes, rows packed).
    func quantize(_ bitmap: ImageBitmap, into indices: UnsafeMutableBufferPointer<UInt8>) {
        var hasTransparency = false
        counts.withUnsafeMutableBufferPointer { countBuffer in
            sums.withUnsafeMutableBufferPointer { sumBuffer in
                let (counted, summed) = (countBuffer, sumBuffer)
                counted.update(repeating: 0)
                summed.update(repeating: 0)
                Self.forEachPixel(of: bitmap) { _, red, green, blue, alpha in
                    guard alpha >= Self.alphaThreshold else {
                        hasTransparency = true
                        return
                    }
                    let key = Self.key(red, green, blue)
                    counted[key] += 1
                    summed[key * 3] += Int(red)
                    summed[key * 3 + 1] += Int(green)
                    summed[key * 3 + 2] += Int(blue)
                }
            }
        }
        colors = Self.medianCut(counts: counts, sums: sums, maxColors: hasTransparency ? 255 : 256)
        let transparent = colors.count / 3
        transparentIndex = hasTransparency ? UInt8(transparent) : nil
        if hasTransparency { colors += [0, 0, 0] }
        if colors.isEmpty { colors = [0, 0, 0] }
        let (opaqueEntries, keyCounts, keySums, chosen) = (transparent, counts, sums, colors)
        nearest.withUnsafeMutableBufferPointer { nearestBuffer in
            let nearestOfKey = nearestBuffer
            nearestOfKey.update(repeating: -1)
            Self.forEachPixel(of: bitmap) { offset, red, green, blue, alpha in
                guard alpha >= Self.alphaThreshold else {
                    indices[offset] = UInt8(transparent)
                    return
                }
                let key = Self.key(red, green, blue)
                var entry = nearestOfKey[key]
                if entry < 0 {
                    entry = Int16(Self.nearestEntry(to: key, counts: keyCounts, sums: keySums, colors: chosen, entries: opaqueEntries))
                    nearestOfKey[key] = entry
                }
                indices[offset] = UInt8(entry)
            }
        }
    }

    /// The entry (of the first `entries`, the opaque ones) nearest the mean colour of
    /// box `key`: found once per box per frame.
    private static func nearestEntry(to key: Int, counts: [Int], sums: [Int], colors: [UInt8], entries: Int) -> Int {
        let count = counts[key]
        let red = sums[key * 3] / count
        let green = sums[key * 3 + 1] / count
        let blue = sums[key * 3 + 2] / count
        var best = 0
        var bestDistance = Int.max
        for entry in 0..<entries {
            let dr = red - Int(colors[entry * 3])
            let dg = green - Int(colors[entry * 3 + 1])
            let db = blue - Int(colors[entry * 3 + 2])
            // Weighted as the eye is: green most, then blue, then red.
            let distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db
            if distance < bestDistance {
                bestDistance = distance
                best = entry
            }
        }
        return best
    }

    private static func key(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        Int(red >> 3) << 10 | Int(green >> 3) << 5 | Int(blue >> 3)
    }

    /// Calls `body` with each pixel's packed offset and its RGBA (gray as equal channels).
    private static func forEachPixel(of bitmap: ImageBitmap, _ body: (Int, UInt8, UInt8, UInt8, UInt8) -> Void) {
        bitmap.withUnsafeBytes { bytes in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                let out = y * bitmap.width
                switch bitmap.pixelFormat {
                case .rgba8:
                    for x in 0..<bitmap.width {
                        let at = row + x * 4
                        body(out + x, bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3])
                    }
                case .gray8:
                    for x in 0..<bitmap.width {
                        let value = bytes[row + x]
                        body(out + x, value, value, value, 255)
                    }
                }
            }
        }
    }

    /// A box of colour keys being cut.
    private struct Box {
        var range: Range<Int>
        var pixels: Int
        /// The widest channel (0 red, 1 green, 2 blue) and its spread in 5-bit steps.
        var channel: Int
        var spread: Int
    }

    /// Up to `maxColors` RGB triples for the counted colours: the mean of each box.
    private static func medianCut(counts: [Int], sums: [Int], maxColors: Int) -> [UInt8] {
        var keys = (0..<counts.count).filter { counts[$0] > 0 }
        guard !keys.isEmpty else { return [] }
        var boxes = [makeBox(keys, keys.indices, counts)]
        while boxes.count < maxColors {
            // The box to cut: widest spread times pixels, among those with two keys or more.
            var chosen = -1
            var bestScore = 0
            for (position, box) in boxes.enumerated() where box.range.count > 1 {
                let score = box.spread * box.pixels
                if score > bestScore || chosen < 0 {
                    bestScore = score
                    chosen = position
                }
            }
            guard chosen >= 0 else { break }
            let box = boxes[chosen]
            let shift = (2 - box.channel) * 5
            let range = box.range
            keys[range].sort { ($0 >> shift) & 31 < ($1 >> shift) & 31 }
            // The pixel median, leaving at least one key on each side.
            var seen = 0
            var cut = range.lowerBound + 1
            for index in range.dropLast() {
                seen += counts[keys[index]]
                cut = index + 1
                if seen * 2 >= box.pixels { break }
            }
            boxes[chosen] = makeBox(keys, range.lowerBound..<cut, counts)
            boxes.append(makeBox(keys, cut..<range.upperBound, counts))
        }
        var colors: [UInt8] = []
        colors.reserveCapacity(boxes.count * 3)
        for box in boxes {
            var total = (0, 0, 0)
            for key in keys[box.range] {
                total.0 += sums[key * 3]
                total.1 += sums[key * 3 + 1]
                total.2 += sums[key * 3 + 2]
            }
            let half = box.pixels / 2
            colors += [
                UInt8((total.0 + half) / box.pixels), UInt8((total.1 + half) / box.pixels), UInt8((total.2 + half) / box.pixels),
            ]
        }
        return colors
    }

    private static func makeBox(_ keys: [Int], _ range: Range<Int>, _ counts: [Int]) -> Box {
        var low = [31, 31, 31]
        var high = [0, 0, 0]
        var pixels = 0
        for key in keys[range] {
            pixels += counts[key]
            for channel in 0..<3 {
                let value = (key >> ((2 - channel) * 5)) & 31
                low[channel] = min(low[channel], value)
                high[channel] = max(high[channel], value)
            }
        }
        let spreads = (0..<3).map { high[$0] - low[$0] }
        let channel = spreads.firstIndex(of: spreads.max()!)!
        return Box(range: range, pixels: pixels, channel: channel, spread: spreads[channel])
    }
}
