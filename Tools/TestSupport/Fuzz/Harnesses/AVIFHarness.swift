import Foundation
import WebImageAVIF
import WebImageCore

/// Fuzz target `avif`: one input through ``AVIFDecoder``.
public enum AVIFHarness {
    /// Decodes `data` as AVIF; checks the image's shape, the pixel limit, and that a
    /// decode with other options (downsampled, gray, upright) agrees with the full one.
    public static func run(_ data: Data) -> FuzzOutcome {
        DecoderHarness.run(AVIFDecoder(), data)
    }
}
