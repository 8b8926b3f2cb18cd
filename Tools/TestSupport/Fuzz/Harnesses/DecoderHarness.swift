import Foundation
import WebImageCore

/// The whole-file decode shared by the PNG, JPEG and GIF harnesses.
enum DecoderHarness {
    /// Decodes `data` with `decoder` at full size; when that works, decodes it again with
    /// options drawn from the input and checks both results against each other.
    ///
    /// A variant must succeed when the full decode did: it needs no more memory, and
    /// downsampling, gray conversion and orientation cannot make good data bad.
    static func run(_ decoder: some ImageDecoding, _ data: Data, extraChecks: (DecodedImage) -> Void = { _ in }) -> FuzzOutcome {
        let full: DecodedImage
        do {
            full = try decoder.decode(data, options: FuzzDecodeOptions.full)
        } catch {
            return .rejected(error.description)
        }
        DecodedImageInvariants.check(full, format: decoder.format, options: FuzzDecodeOptions.full)
        fuzzCheck(full.size == full.sourceSize, "full-size decode is \(full.size), the source \(full.sourceSize)")
        extraChecks(full)

        let options = FuzzDecodeOptions.variant(for: data)
        do {
            let variant = try decoder.decode(data, options: options)
            DecodedImageInvariants.check(variant, format: decoder.format, options: options)
            DecodedImageInvariants.checkVariant(variant, against: full, options: options)
        } catch {
            fuzzFailure("the full decode worked but \(options) failed: \(error)")
        }
        return .accepted(DecodedImageInvariants.summary(full))
    }
}
