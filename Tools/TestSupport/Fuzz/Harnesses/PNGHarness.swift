import Foundation
import WebImageCore
import WebImageDecoding

/// Fuzz target `png`: one input through ``PNGDecoder``.
public enum PNGHarness {
    /// Decodes `data` as PNG; checks the image's shape, the pixel limit, and that a
    /// decode with other options (downsampled, gray, upright) agrees with the full one.
    public static func run(_ data: Data) -> FuzzOutcome {
        DecoderHarness.run(PNGDecoder(), data)
    }
}
