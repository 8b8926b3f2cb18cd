import Crypto
import WebImageCore

/// The corpus's reference hash of a decoded first frame: SHA-256 of RGBA8 rows, with
/// R, G and B set to 0 wherever alpha is 0 (so the colour of invisible pixels, which
/// decoders may differ on, does not count).
///
/// The digest is BoringSSL's (swift-crypto), whose assembly no sanitizer instruments: the
/// suites hash thousands of frames, and an instrumented debug SHA-256 kept the corpus
/// suites from finishing under the thread sanitizer.
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
    return SHA256.hash(data: pixels).map { byte in
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]], as: UTF8.self)
    }.joined()
}
