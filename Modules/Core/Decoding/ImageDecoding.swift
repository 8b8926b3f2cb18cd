import Foundation

/// A decoder for one image format: whole files at once, or bytes as they arrive.
///
/// Implementations are stateless values, safe to call from any thread at once; the
/// state of a decode lives in the call, or in the incremental decoder it makes.
/// Register your own with `ImageDecoderRegistry` (in WebImageDecoding).
public protocol ImageDecoding: Sendable {
    /// The format this decoder reads.
    var format: ImageFormat { get }

    /// Whether `header` (the first bytes of a file, at least
    /// ``ImageFormat/sniffLength`` when the file is that long) is in this decoder's
    /// format. The default compares ``ImageFormat/sniff(_:)`` with ``format``.
    func recognizes(_ header: Data) -> Bool

    /// Decodes a whole file.
    ///
    /// May be called on any thread; it blocks that thread for the decode, so call it
    /// off the main actor or a cooperative thread for large images.
    ///
    /// - Throws: ``ImageDecodingError`` saying what is wrong with the data, or that
    ///   the image is over ``DecodeOptions/maxPixelCount``.
    func decode(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> DecodedImage

    /// A decoder to feed bytes as they arrive, for progressive display.
    func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoding
    /// About how many bytes of pixels decoding `data` with `options` holds at its peak,
    /// read from the headers alone (no pixel is decoded; an animation's frames are
    /// counted), or `nil` when the headers do not say. A memory budget reserves this
    /// much before the decode starts. The default is `nil`: a decoder that cannot tell
    /// decodes without waiting for the budget.
    func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int?

    /// The headers of `data`: size, orientation and frame count, with no pixel decoded.
    /// The work grows with the file's blocks or chunks, never with its pixels.
    ///
    /// - Throws: ``ImageDecodingError`` when the headers are unreadable, or
    ///   ``ImageDecodingError/Code/unsupported`` from a decoder that cannot read them
    ///   alone (the default).
    func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader

    /// Parses the header of `data` once and returns the decode ready to run, with its
    /// memory estimate read from the same header (see ``PreparedImageDecode``).
    ///
    /// A caller that reserves memory before decoding calls this rather than
    /// ``estimatedMemory(decoding:options:)`` then ``decode(_:options:)``, which would
    /// read the header twice. Bad bytes do not throw here: the prepared decode throws
    /// what ``decode(_:options:)`` throws for them. The default estimates with
    /// ``estimatedMemory(decoding:options:)`` and decodes with ``decode(_:options:)``.
    func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode

    /// Reads the header of `data` and keeps the parse, for decodes prepared later with
    /// options chosen from that header (see ``SurveyedImageSource``).
    ///
    /// A caller that reads the header to choose the decode's options calls this rather
    /// than ``readHeader(_:)`` then ``prepareDecode(_:options:)``, which would read the
    /// header twice. The default reads the header with ``readHeader(_:)`` and prepares
    /// each decode with ``prepareDecode(_:options:)``.
    ///
    /// - Throws: what ``readHeader(_:)`` throws for the same bytes.
    func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource
}

extension ImageDecoding {
    public func estimatedMemory(decoding data: Data, options: DecodeOptions) -> Int? { nil }

    public func readHeader(_ data: Data) throws(ImageDecodingError) -> ImageHeader {
        throw ImageDecodingError(.unsupported, "this decoder reads no header on its own", format: format)
    }

    public func prepareDecode(_ data: Data, options: DecodeOptions) -> PreparedImageDecode {
        PreparedImageDecode(format: format) {
            self.estimatedMemory(decoding: data, options: options)
        } decode: { () throws(ImageDecodingError) -> DecodedImage in
            try self.decode(data, options: options)
        }
    }

    public func survey(_ data: Data) throws(ImageDecodingError) -> SurveyedImageSource {
        SurveyedImageSource(header: try readHeader(data)) { options in
            self.prepareDecode(data, options: options)
        }
    }

    public func recognizes(_ header: Data) -> Bool {
        ImageFormat.sniff(header) == format
    }

    /// Decodes a whole file with the default options.
    public func decode(_ data: Data) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: .default)
    }
}

/// Decodes a file from bytes fed as they arrive, and shows what it has so far.
///
/// A progressive JPEG or interlaced PNG gives a full-size picture at low detail after
/// each scan or pass; a baseline JPEG or plain PNG gives the rows decoded so far.
///
/// Thread contract: an incremental decoder belongs to one task at a time and is not
/// `Sendable`; the images it returns are, and may be shared at once.
public protocol IncrementalImageDecoding: AnyObject {
    /// The format being decoded.
    var format: ImageFormat { get }

    /// The header facts, once enough bytes have arrived; `nil` before.
    var info: ImageInfo? { get }

    /// Grows each time more pixels become visible. Compare it with the value you saw
    /// last to decide whether a new ``partialImage()`` is worth making.
    var revision: Int { get }

    /// Feeds the next bytes of the file.
    ///
    /// - Throws: ``ImageDecodingError`` as soon as the data is known to be bad or over
    ///   the limits; the decoder is then finished and further calls throw
    ///   ``ImageDecodingError/Code/invalidState``.
    func append(_ data: Data) throws(ImageDecodingError)

    /// A full-size copy of what is decoded so far (``DecodedImage/isPartial`` is true),
    /// or `nil` before the first pixel. Each call copies the pixels.
    func partialImage() throws(ImageDecodingError) -> DecodedImage?

    /// Declares the end of the data and returns the final image.
    ///
    /// - Throws: ``ImageDecodingError/Code/truncated`` when pixels are missing, or any
    ///   error a whole-file decode would give.
    func finish() throws(ImageDecodingError) -> DecodedImage
}

/// A decoder that can also walk an animation one frame at a time, so that a long
/// animation need not be held whole in memory.
public protocol AnimatedImageDecoding: ImageDecoding {
    /// A reader over the composed frames of `data`.
    ///
    /// - Throws: ``ImageDecodingError`` when the header is bad or one frame is over the
    ///   pixel limit.
    func makeFrameReader(for data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any ImageFrameReading
}

/// Yields the frames of an animation in order, each composed on the full canvas.
///
/// Holds only the compressed data and one or two canvases, whatever the frame count.
/// Not `Sendable`: one task walks it.
public protocol ImageFrameReading: AnyObject {
    /// The header facts.
    var info: ImageInfo { get }
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int { get }
    /// The next frame, or `nil` after the last one.
    ///
    /// - Throws: ``ImageDecodingError`` when a frame is damaged or truncated.
    func nextFrame() throws(ImageDecodingError) -> ImageFrame?
    /// The colour space the frames' pixels are in, as the file states it: `nil` for
    /// sRGB, or when the file's profile is one a decode ignores (see
    /// ``DecodedImage/attachEmbeddedProfile(_:)``). The frame readers of a decoder
    /// registry with a colour engine convert from it as `DecodeOptions.color` asks.
    var colorProfile: ColorProfile? { get }
}

extension ImageFrameReading {
    /// `nil`: a reader that does not say is taken to give sRGB.
    public var colorProfile: ColorProfile? { nil }
}

/// An encoder that writes a bitmap as a file.
public protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }

    /// The bytes of a file holding `bitmap`.
    ///
    /// - Throws: ``ImageDecodingError/Code/encodingFailed``.
    func encode(_ bitmap: ImageBitmap) throws(ImageDecodingError) -> Data
}
