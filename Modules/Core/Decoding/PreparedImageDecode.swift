import Foundation

/// A decode whose format is sniffed and whose header is parsed, ready to run: the
/// memory estimate and the decode both read the one parsed header.
///
/// A memory budget needs the decode's peak before the decode starts, and the decode
/// needs the same header facts to plan its work. Reading the header once for both keeps
/// a whole-file walk (a GIF's blocks, an APNG's chunks, an AVIF's boxes) from running
/// twice per image. Make one with ``ImageDecoding/prepareDecode(_:options:)``, or with
/// ``ImageDecoderProviding/prepareDecode(_:options:)`` to sniff the format first, or
/// from a ``SurveyedImageSource`` when the options are chosen after reading the header.
///
/// ```swift
/// let prepared = try registry.prepareDecode(data, options: options)
/// let reservation = try await budget.reserve(prepared.estimatedMemory ?? 0)
/// let image = try prepared.decode()
/// ```
///
/// Thread contract: `Sendable`; ``estimatedMemory`` and ``decode()`` may be called from
/// any thread, ``decode()`` blocking its thread for the decode. Calling ``decode()``
/// again decodes again, from the same header.
public struct PreparedImageDecode: Sendable {
    /// The format the bytes were sniffed as.
    public let format: ImageFormat

    private let estimate: @Sendable () -> Int?
    private let run: @Sendable () throws(ImageDecodingError) -> DecodedImage

    /// A prepared decode from a decoder's parsed header.
    ///
    /// - Parameters:
    ///   - format: the format the bytes were sniffed as.
    ///   - estimatedMemory: the decode's peak from the parsed header (see
    ///     ``ImageDecoding/estimatedMemory(decoding:options:)``), computed when asked, so
    ///     that a caller with no memory budget pays nothing for it.
    ///   - decode: the decode, reading the same parsed header; it throws what
    ///     ``ImageDecoding/decode(_:options:)`` throws for the same bytes.
    public init(
        format: ImageFormat, estimatedMemory: @escaping @Sendable () -> Int?,
        decode: @escaping @Sendable () throws(ImageDecodingError) -> DecodedImage
    ) {
        self.format = format
        self.estimate = estimatedMemory
        self.run = decode
    }

    /// About how many bytes of pixels the decode holds at its peak, from the parsed
    /// header; `nil` when the header does not say, 0 for a file over the options' limits
    /// (its decode fails before allocating).
    public var estimatedMemory: Int? { estimate() }

    /// Decodes the file from the parsed header.
    ///
    /// - Throws: ``ImageDecodingError``, the same error a decode of the same bytes with
    ///   the same options throws.
    public func decode() throws(ImageDecodingError) -> DecodedImage {
        try run()
    }
}
