import WebImageCore

@testable import WebImageCache

/// The corpus's reference hash of a decoded first frame: SHA-256 of RGBA8 rows, with
/// R, G and B set to 0 wherever alpha is 0 (so the colour of invisible pixels, which
/// decoders may differ on, does not count).
public func referenceHash(of bitmap: ImageBitmap) -> String {
    precondition(bitmap.pixelFormat == .rgba8)
    var pixels = bitmap.packedBytes
    var index = 0
    while index < pixels.count {
        if pixels[index + 3] == 0 {
            pixels[index] = 0
            pixels[index + 1] = 0
            pixels[index + 2] = 0
        }
        index += 4
    }
    var digest = SHA256Digest()
    pixels.withUnsafeBytes { digest.update(raw: $0) }
    return digest.finalize()
}
