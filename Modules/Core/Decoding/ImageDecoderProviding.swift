import Foundation

/// Picks the decoder for some bytes: what the Manager needs from the Decoding module.
///
/// `ImageDecoderRegistry` in WebImageDecoding is the standard one (PNG, JPEG, GIF); give
/// your own to add formats or to change which decoder wins.
public protocol ImageDecoderProviding: Sendable {
    /// The decoder for a file starting with `header` (at least
    /// ``ImageFormat/sniffLength`` bytes when there are that many).
    ///
    /// - Throws: ``ImageDecodingError`` `empty`, `unsupported` (a format known but with
    ///   no decoder) or `unknownFormat`.
    func decoder(for header: Data) throws(ImageDecodingError) -> any ImageDecoding
}

extension ImageDecoderProviding {
    /// Decodes a whole file with the decoder its first bytes call for.
    public func decodeImage(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage {
        try decoder(for: data).decode(data, options: options)
    }

    /// Sniffs `data` once and has the decoder it calls for parse the header once: the
    /// returned value gives the memory estimate and the decode from that one header (see
    /// ``PreparedImageDecode``). The path to take when memory is reserved before a decode.
    ///
    /// - Throws: the errors of ``decoder(for:)``; errors in the file itself come from
    ///   ``PreparedImageDecode/decode()``.
    public func prepareDecode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> PreparedImageDecode {
        try decoder(for: data).prepareDecode(data, options: options)
    }

    /// Sniffs `data` once and has the decoder it calls for read the header once, kept for
    /// decodes prepared later with options chosen from that header (see
    /// ``SurveyedImageSource``). The path to take when the header decides the decode.
    ///
    /// - Throws: the errors of ``decoder(for:)``, then those of the decoder's
    ///   ``ImageDecoding/readHeader(_:)``.
    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        try decoder(for: data).survey(data)
    }

    /// About how many bytes of pixels decoding `data` holds at its peak, from the headers
    /// of the decoder its first bytes call for (see
    /// ``ImageDecoding/estimatedMemory(decoding:options:)``); `nil` when unknown.
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? {
        guard let decoder = try? decoder(for: data) else { return nil }
        return decoder.estimatedMemory(decoding: data, options: options)
    }
}
