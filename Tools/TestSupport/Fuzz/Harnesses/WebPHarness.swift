import Foundation
import WebImageCore
import WebImageWebP

/// Fuzz target `webp`: one input through ``WebPDecoder``.
public enum WebPHarness {
    /// Decodes `data` as WebP; checks the image's shape, the pixel limit, and that a
    /// decode with other options (downsampled, gray, upright) agrees with the full one.
    public static func run(_ data: Data) -> FuzzOutcome {
        DecoderHarness.run(WebPDecoder(), data)
    }
}
