import WebImageCore

/// Deterministic animated GIF content: a camera panning across a photo-like scene,
/// every frame covering the whole screen in 256 colours.
///
/// Thread contract: stateless; call from any thread.
public enum SyntheticAnimation {
    /// The 256-colour palette the frames use: a 6x7x6 RGB cube (green gets the extra
    /// level, as the eye is most sensitive to it) and four grays, as RGB triples.
    public static let palette: [UInt8] = palette(tint: (0, 0, 0))

    /// A `frameCount`-frame animation of `width` x `height`.
    ///
    /// - Parameters:
    ///   - localPalettes: give every frame its own (slightly tinted) 256-colour table
    ///     instead of one global table.
    ///   - delayCentiseconds: the delay of every frame.
    ///   - loopCount: the NETSCAPE2.0 loop count (0 forever), or `nil` for none.
    /// - Throws: ``ImageDecodingError/Code/invalidDimensions`` for a negative size or
    ///   frame count; ``ImageDecodingError/Code/outOfMemory`` when the scene cannot be
    ///   allocated.
    public static func make(
        width: Int, height: Int, frameCount: Int,
        localPalettes: Bool = false, delayCentiseconds: Int = 4, loopCount: Int? = 0,
        seed: UInt64 = WebImageFixtures.defaultSeed
    ) throws(ImageDecodingError) -> GIFFixtureAnimation {
        guard frameCount >= 0 else {
            throw ImageDecodingError(.invalidDimensions, "cannot make \(frameCount) frames", format: .gif)
        }
        try SyntheticImage.checkSize(width, height)
        let step = Swift.max(1, width / 60)
        let scene = try SyntheticImage.photo(width: width + step * Swift.max(0, frameCount - 1), height: height, seed: seed)
        var frames: [GIFFixtureFrame] = []
        frames.reserveCapacity(frameCount)
        scene.withUnsafeBytes { pixels in
            for number in 0..<frameCount {
                // Local tables shift hue a little per frame so that each really differs.
                let tint = localPalettes ? (Int(number % 5) * 4, 0, Int(number % 3) * 4) : (0, 0, 0)
                var indices = [UInt8](repeating: 0, count: width * height)
                for y in 0..<height {
                    for x in 0..<width {
                        let s = y * scene.bytesPerRow + (x + number * step) * 4
                        indices[y * width + x] = quantize(
                            Int(pixels[s]) - tint.0, Int(pixels[s + 1]) - tint.1, Int(pixels[s + 2]) - tint.2
                        )
                    }
                }
                frames.append(
                    GIFFixtureFrame(
                        indices: indices, width: width, height: height,
                        localPalette: localPalettes ? palette(tint: tint) : nil,
                        delayCentiseconds: delayCentiseconds
                    ))
            }
        }
        return GIFFixtureAnimation(
            width: width, height: height, globalPalette: localPalettes ? nil : palette,
            loopCount: loopCount, frames: frames
        )
    }

    /// The nearest cube entry of ``palette`` (before tint).
    static func quantize(_ red: Int, _ green: Int, _ blue: Int) -> UInt8 {
        func level(_ value: Int, _ steps: Int) -> Int { (Swift.min(255, Swift.max(0, value)) * (steps - 1) + 127) / 255 }
        return UInt8(level(red, 6) * 42 + level(green, 7) * 6 + level(blue, 6))
    }

    private static func palette(tint: (Int, Int, Int)) -> [UInt8] {
        var colors: [UInt8] = []
        colors.reserveCapacity(768)
        func add(_ r: Int, _ g: Int, _ b: Int) {
            colors += [r + tint.0, g + tint.1, b + tint.2].map { UInt8(clamping: $0) }
        }
        for r in 0..<6 { for g in 0..<7 { for b in 0..<6 { add(r * 51, g * 255 / 6, b * 51) } } }
        for gray in [64, 128, 192, 255] { add(gray, gray, gray) }
        return colors
    }
}
