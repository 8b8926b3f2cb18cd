import Foundation

/// A file whose format is sniffed and whose header is read, kept so that the decode
/// prepared for options chosen from that header reads the same parse.
///
/// A caller that picks the decode's size, limits or colour from the header (an image
/// proxy planning a thumbnail) would otherwise read the header once to decide and again
/// to decode. Make one with ``ImageDecoding/survey(_:)``, or with
/// ``ImageDecoderProviding/survey(_:)`` to sniff the format first.
///
/// ```swift
/// let surveyed = try registry.survey(data)
/// let side = max(surveyed.header.info.size.width, surveyed.header.info.size.height)
/// let prepared = surveyed.prepareDecode(options: DecodeOptions(maxPixelSize: min(side, 512)))
/// let image = try prepared.decode()
/// ```
///
/// Thread contract: `Sendable`; ``prepareDecode(options:)`` may be called from any
/// thread, as often as needed, each time for options of its own.
public struct SurveyedImageSource: Sendable {
    /// The file's header, as ``ImageDecoding/readHeader(_:)`` reads it.
    public let header: ImageHeader

    private let prepare: @Sendable (DecodeOptions) -> PreparedImageDecode

    /// A surveyed file from a decoder's parsed header.
    ///
    /// - Parameters:
    ///   - header: what ``ImageDecoding/readHeader(_:)`` returns for the file.
    ///   - prepareDecode: the decode of the file with the options given, as
    ///     ``ImageDecoding/prepareDecode(_:options:)`` prepares it, reading the parse
    ///     `header` came from where the decoder can.
    public init(header: ImageHeader, prepareDecode: @escaping @Sendable (DecodeOptions) -> PreparedImageDecode) {
        self.header = header
        self.prepare = prepareDecode
    }

    /// The decode of the file with `options`, ready to run: it gives the same estimate
    /// and the same image (or error) as ``ImageDecoding/prepareDecode(_:options:)`` for
    /// the same bytes and options.
    public func prepareDecode(options: DecodeOptions) -> PreparedImageDecode {
        prepare(options)
    }
}
