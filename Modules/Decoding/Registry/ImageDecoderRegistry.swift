import Foundation
import WebImageCore

/// The decoders the library picks from, by the format the bytes show.
///
/// A value, not a global: build one, register decoders of your own (they take
/// precedence over the built-in ones for the formats they recognise), and hand it to
/// whoever decodes.
///
/// ```swift
/// var registry = ImageDecoderRegistry.standard
/// registry.register(MyWebPDecoder())
/// let image = try registry.decode(data, options: DecodeOptions(maxPixelSize: 512))
/// ```
public struct ImageDecoderRegistry: Sendable {
    /// Decoders in order of precedence, the last registered first.
    public private(set) var decoders: [any ImageDecoding]

    /// The colour engine that brings decoded images to the space
    /// `DecodeOptions.color` asks for (the `WebImage` umbrella sets LittleCMS's, from
    /// WebImageColor). `nil`: no conversion, and each image carries the profile its
    /// pixels are in (`DecodedImage.colorProfile`); CMYK JPEGs are converted with a
    /// naive formula, with a warning.
    public var colorConverter: (any ColorConverting)?

    /// A registry with exactly these decoders, earlier ones first, and `colorConverter`
    /// to convert colours.
    public init(decoders: [any ImageDecoding], colorConverter: (any ColorConverting)? = nil) {
        self.decoders = decoders
        self.colorConverter = colorConverter
    }

    /// PNG, JPEG and GIF on libpng, libjpeg-turbo and giflib.
    public static var standard: ImageDecoderRegistry {
        ImageDecoderRegistry(decoders: [PNGDecoder(), JPEGDecoder(), GIFDecoder()])
    }

    /// An `Accept` header naming exactly the formats registered, in order of precedence,
    /// then any other image and anything at all at lower preference:
    /// `image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5` for the
    /// `WebImage` umbrella's default decoders. A CDN that picks the format by the
    /// request's `Accept` then serves only formats that can be decoded.
    public var acceptHeader: String {
        var seen = Set<String>()
        let types = decoders.map(\.format.mimeType).filter { seen.insert($0).inserted }
        return (types + ["image/*;q=0.8", "*/*;q=0.5"]).joined(separator: ",")
    }

    /// Adds a decoder, ahead of every decoder already registered.
    public mutating func register(_ decoder: any ImageDecoding) {
        decoders.insert(decoder, at: 0)
    }

    /// The decoder for a file starting with `header`.
    ///
    /// - Throws: `ImageDecodingError.Code.empty` for no bytes,
    ///   `ImageDecodingError.Code.unsupported` for a format recognised but not
    ///   registered (WebP, HEIC, AVIF, BMP, TIFF by default), and
    ///   `ImageDecodingError.Code.unknownFormat` otherwise.
    ///
    /// With a ``colorConverter``, the decoder returned converts what it decodes as
    /// `DecodeOptions.color` asks; an `AnimatedImageDecoding` stays one, and its frame
    /// readers convert each frame as it is read.
    public func decoder(for header: Data) throws(ImageDecodingError) -> any ImageDecoding {
        guard !header.isEmpty else { throw ImageDecodingError(.empty, "no bytes to decode") }
        let head = header.prefix(ImageFormat.sniffLength)
        if let decoder = decoders.first(where: { $0.recognizes(head) }) {
            guard let colorConverter else { return decoder }
            if let animated = decoder as? any AnimatedImageDecoding {
                return ColorManagedAnimatedDecoder(base: animated, converter: colorConverter)
            }
            return ColorManagedDecoder(base: decoder, converter: colorConverter)
        }
        if let known = ImageFormat.sniff(head) {
            throw ImageDecodingError(.unsupported, "no decoder is registered for \(known)", format: known)
        }
        let hex = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        throw ImageDecodingError(.unknownFormat, "the data is not in a known image format (starts with \(hex))")
    }

    /// Decodes a whole file with the decoder its first bytes call for.
    public func decode(_ data: Data, options: DecodeOptions = .default) throws(ImageDecodingError) -> DecodedImage {
        try decoder(for: data).decode(data, options: options)
    }

    /// The headers of a file (size, orientation, frames) read by the decoder its first
    /// bytes call for, with no pixel decoded: check a file against limits of your own,
    /// or choose the decode's size, before paying for the decode.
    ///
    /// - Throws: the errors of ``decoder(for:)``, or the decoder's when the headers
    ///   are unreadable.
    public func header(of data: Data) throws(ImageDecodingError) -> ImageHeader {
        try decoder(for: data).readHeader(data)
    }

    /// An incremental decoder that waits for enough bytes to recognise the format, then
    /// hands everything to that format's incremental decoder.
    public func makeIncrementalDecoder(options: DecodeOptions = .default) -> any IncrementalImageDecoding {
        SniffingIncrementalDecoder(registry: self, options: options)
    }
}

/// The Manager finds decoders through Core's protocol.
extension ImageDecoderRegistry: ImageDecoderProviding {}
