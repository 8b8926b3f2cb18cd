import WebImageCore

/// Makes a full-size preview of an interlaced PNG from its completed Adam7 passes:
/// each pixel takes the colour of the nearest known pixel above and to the left, so
/// the picture sharpens pass by pass instead of showing scattered dots.
enum Adam7Preview {
    /// Width and height of the block each known pixel stands for after `passes`
    /// complete passes (1...7).
    static func blockSize(afterPasses passes: Int) -> (width: Int, height: Int) {
        let blocks = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)]
        return blocks[max(1, min(7, passes)) - 1]
    }

    static func fill(_ bitmap: ImageBitmap, completedPasses passes: Int) throws(ImageDecodingError) -> ImageBitmap {
        let (blockWidth, blockHeight) = blockSize(afterPasses: passes)
        return try bitmap.withUnsafeBytes { (source) throws(ImageDecodingError) -> ImageBitmap in
            try ImageBitmap(width: bitmap.width, height: bitmap.height, pixelFormat: .rgba8) { (dest, stride) in
                let src = source.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let dst = dest.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let sourceWords = bitmap.bytesPerRow / 4
                let destWords = stride / 4
                for y in 0..<bitmap.height {
                    let knownRow = src + (y - y % blockHeight) * sourceWords
                    let out = dst + y * destWords
                    for x in 0..<bitmap.width { out[x] = knownRow[x - x % blockWidth] }
                }
            }
        }
    }
}
