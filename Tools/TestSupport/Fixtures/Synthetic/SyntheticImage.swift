import WebImageCore

/// Deterministic synthetic pictures: the same size and seed give the same pixels on
/// every run and machine.
///
/// Thread contract: stateless; call from any thread.
public enum SyntheticImage {
    /// Refuses negative sizes before any table is sized from them.
    static func checkSize(_ width: Int, _ height: Int) throws(ImageDecodingError) {
        guard width >= 0, height >= 0 else {
            throw ImageDecodingError(.invalidDimensions, "cannot make a \(width)x\(height) image")
        }
    }

    /// A photo-like opaque RGBA picture: smooth gradients, overlapping shapes with hard
    /// and soft edges, fine stripes and mild noise. JPEG at quality 85 compresses it
    /// to about 1-2 bits per pixel, as it would a photo.
    ///
    /// - Throws: ``ImageDecodingError/Code/invalidDimensions`` for a negative side;
    ///   ``ImageDecodingError/Code/outOfMemory`` or ``ImageDecodingError/Code/tooLarge``
    ///   when the bitmap cannot be allocated.
    public static func photo(width: Int, height: Int, seed: UInt64 = WebImageFixtures.defaultSeed) throws(ImageDecodingError) -> ImageBitmap
    {
        try checkSize(width, height)
        let scene = PhotoScene(width: width, height: height, seed: seed)
        return try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, bytesPerRow in
            guard let base = bytes.baseAddress else { return }
            scene.paint(into: base.assumingMemoryBound(to: UInt8.self), bytesPerRow: bytesPerRow)
        }
    }

    /// One RGBA colour everywhere (`rgba`: red, green, blue, alpha), filled by doubling
    /// copies rather than a loop over the samples, which took seconds for large frames
    /// in debug builds.
    ///
    /// - Throws: as ``photo(width:height:seed:)``.
    public static func solid(width: Int, height: Int, rgba: [UInt8]) throws(ImageDecodingError) -> ImageBitmap {
        precondition(rgba.count == 4, "a colour is four samples")
        try checkSize(width, height)
        return try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, _ in
            guard let base = bytes.baseAddress, bytes.count >= 4 else { return }
            rgba.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 4) }
            var filled = 4
            while filled < bytes.count {
                let count = min(filled, bytes.count - filled)
                (base + filled).copyMemory(from: base, byteCount: count)
                filled += count
            }
        }
    }

    /// ``photo(width:height:seed:)`` in 8-bit gray (Rec. 601 luma).
    ///
    /// - Throws: as ``photo(width:height:seed:)``.
    public static func grayPhoto(width: Int, height: Int, seed: UInt64 = WebImageFixtures.defaultSeed) throws(ImageDecodingError)
        -> ImageBitmap
    {
        let color = try photo(width: width, height: height, seed: seed)
        return try color.withUnsafeBytes { (source) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: width, height: height, pixelFormat: .gray8) { dest, bytesPerRow in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = y * color.bytesPerRow + x * 4
                        let luma = (299 * Int(source[s]) + 587 * Int(source[s + 1]) + 114 * Int(source[s + 2]) + 500) / 1000
                        dest[y * bytesPerRow + x] = UInt8(luma)
                    }
                }
            }
        }
    }

    /// The photo with varied alpha: fully transparent corners and holes, an opaque
    /// centre, and bands of every level in between, so that alpha handling (straight
    /// versus premultiplied, transparent pixels' colour) shows in the result.
    ///
    /// - Throws: as ``photo(width:height:seed:)``.
    public static func translucent(width: Int, height: Int, seed: UInt64 = WebImageFixtures.defaultSeed) throws(ImageDecodingError)
        -> ImageBitmap
    {
        try checkSize(width, height)
        let scene = PhotoScene(width: width, height: height, seed: seed)
        return try ImageBitmap(width: width, height: height, pixelFormat: .rgba8) { bytes, bytesPerRow in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            scene.paint(into: base, bytesPerRow: bytesPerRow)
            let centerX = Double(width) / 2
            let centerY = Double(height) / 2
            let radius = Swift.max(1, Double(Swift.min(width, height)) / 2)
            for y in 0..<height {
                for x in 0..<width {
                    let dx = (Double(x) + 0.5 - centerX) / radius
                    let dy = (Double(y) + 0.5 - centerY) / radius
                    let distance = (dx * dx + dy * dy).squareRoot()
                    let alpha: UInt8
                    if distance < 0.35 {
                        alpha = 255  // opaque centre
                    } else if distance > 1.1 {
                        alpha = 0  // transparent corners
                    } else if (x / 8 + y / 8) % 7 == 0 {
                        alpha = 0  // scattered holes
                    } else {
                        // Falls off with distance, banded so that every level appears.
                        alpha = UInt8(clamping: Int((1.1 - distance) / 0.75 * 255) ^ ((x >> 2) & 0x0F))
                    }
                    base[y * bytesPerRow + x * 4 + 3] = alpha
                }
            }
        }
    }
}
