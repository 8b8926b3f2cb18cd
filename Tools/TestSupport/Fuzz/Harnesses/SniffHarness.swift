import Foundation
import WebImageAVIF
import WebImageCore
import WebImageDecoding
import WebImageWebP

/// Fuzz target `sniff`: format recognition against what the decoders accept.
public enum SniffHarness {
    /// Small enough that decoding any accepted header stays cheap.
    private static let options = DecodeOptions(maxPixelCount: 1 << 16)
    private static let decoders: [any ImageDecoding] = [PNGDecoder(), JPEGDecoder(), GIFDecoder(), WebPDecoder(), AVIFDecoder()]

    /// Checks that `ImageFormat.sniff` reads only the first ``ImageFormat/sniffLength``
    /// bytes; that the registry picks the decoder of the sniffed format (and reports
    /// `.empty`, `.unsupported` or `.unknownFormat` otherwise); that every decoder
    /// `recognizes` exactly the bytes sniffed as its format; and that no decoder accepts
    /// bytes sniffed as another format, since the registry would never hand it them.
    public static func run(_ data: Data) -> FuzzOutcome {
        let sniffed = ImageFormat.sniff(data)
        let head = data.prefix(ImageFormat.sniffLength)
        fuzzCheck(ImageFormat.sniff(head) == sniffed, "sniff reads past the first \(ImageFormat.sniffLength) bytes")
        if let sniffed {
            fuzzCheck(ImageFormat.recognised.contains(sniffed), "sniffed \(sniffed), which is not in ImageFormat.recognised")
        }

        let registry = FuzzRegistry.all
        do {
            let chosen = try registry.decoder(for: data)
            fuzzCheck(chosen.format == sniffed, "the registry chose \(chosen.format) for bytes sniffed as \(String(describing: sniffed))")
        } catch {
            let expected: ImageDecodingError.Code = data.isEmpty ? .empty : sniffed == nil ? .unknownFormat : .unsupported
            fuzzCheck(error.code == expected, "the registry gave \(error.code), expected \(expected) for \(String(describing: sniffed))")
            fuzzCheck(
                sniffed.map { ![.png, .jpeg, .gif, .webp, .avif].contains($0) } ?? true,
                "no decoder chosen for \(String(describing: sniffed))")
        }

        var accepted: [ImageFormat] = []
        for decoder in decoders {
            fuzzCheck(decoder.recognizes(head) == (sniffed == decoder.format), "\(decoder.format) recognizes disagrees with sniff")
            if let image = try? decoder.decode(data, options: options) {
                fuzzCheck(sniffed == decoder.format, "\(decoder.format) decoded bytes sniffed as \(String(describing: sniffed))")
                fuzzCheck(image.format == decoder.format, "\(decoder.format) decoder labelled its image \(image.format)")
                accepted.append(decoder.format)
            }
        }
        let name = sniffed?.identifier ?? "unknown"
        return accepted.isEmpty ? .rejected("sniffed \(name), no decoder accepted") : .accepted("sniffed \(name), decoded")
    }
}
