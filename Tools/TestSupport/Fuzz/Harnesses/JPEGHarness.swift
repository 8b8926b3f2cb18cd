import Foundation
import WebImageCore
import WebImageDecoding

/// Fuzz target `jpeg`: one input through ``JPEGDecoder``.
public enum JPEGHarness {
    /// Decodes `data` as JPEG with the checks of every decoder, plus one of its own:
    /// JPEG has no alpha, so every RGBA pixel must be opaque (a transparent one means
    /// rows the codec never wrote).
    public static func run(_ data: Data) -> FuzzOutcome {
        DecoderHarness.run(JPEGDecoder(), data) { image in
            fuzzCheck(image.frames.count == 1, "a JPEG with \(image.frames.count) frames")
            let bitmap = image.bitmap
            bitmap.withUnsafeBytes { bytes in
                for y in 0..<bitmap.height {
                    let row = y * bitmap.bytesPerRow
                    for x in 0..<bitmap.width where bytes[row + x * 4 + 3] != 255 {
                        fuzzFailure("JPEG pixel (\(x), \(y)) has alpha \(bytes[row + x * 4 + 3])")
                    }
                }
            }
        }
    }
}
