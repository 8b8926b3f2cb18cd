/// Why an image could not be decoded or encoded.
///
/// Switch on ``code`` to act; ``message`` says what the codec reported, for logs.
/// Codes are values of a struct rather than enum cases so that new ones can be added
/// without breaking your `switch`.
public struct ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// No bytes at all.
        public static let empty = Code("empty")
        /// The bytes match no format the library knows.
        public static let unknownFormat = Code("unknownFormat")
        /// A known format with no decoder registered (HEIC, BMP or TIFF; WebP and AVIF
        /// where their decoders are not registered), or a variant the codec cannot read
        /// (12-bit or lossless JPEG).
        public static let unsupported = Code("unsupported")
        /// The headers are invalid: a bad signature, bad CRC, impossible field.
        public static let invalidHeader = Code("invalidHeader")
        /// Width or height is zero.
        public static let invalidDimensions = Code("invalidDimensions")
        /// The data ends before every pixel was read.
        public static let truncated = Code("truncated")
        /// The compressed pixel data is damaged.
        public static let corrupt = Code("corrupt")
        /// Decoding would need more pixels than ``DecodeOptions/maxPixelCount``.
        public static let tooLarge = Code("tooLarge")
        /// The system had no memory for the pixels.
        public static let outOfMemory = Code("outOfMemory")
        /// The incremental decoder was used after it finished or failed.
        public static let invalidState = Code("invalidState")
        /// An encoder could not write the image.
        public static let encodingFailed = Code("encodingFailed")
    }

    public let code: Code
    /// The format being decoded, when known.
    public var format: ImageFormat?
    /// Detail from the codec, for people and logs.
    public var message: String

    public init(_ code: Code, _ message: String, format: ImageFormat? = nil) {
        self.code = code
        self.message = message
        self.format = format
    }

    public var description: String {
        let prefix = format.map { "\($0) " } ?? ""
        return "\(prefix)\(code): \(message)"
    }

    /// The same error, naming `format` if it named none.
    public func withFormat(_ format: ImageFormat) -> ImageDecodingError {
        var copy = self
        if copy.format == nil { copy.format = format }
        return copy
    }
}
