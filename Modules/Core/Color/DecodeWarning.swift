/// Something a decode could not honour but that did not stop it, such as a colour
/// profile it ignored. The image is still the best a browser would show.
public struct DecodeWarning: Sendable, Hashable, CustomStringConvertible {
    /// The kind of warning.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The file's colour profile is over the size limit, malformed or unusable: the
        /// pixels are shown as stored, taken to be sRGB, as browsers show them.
        public static let colorProfileIgnored = Code("colorProfileIgnored")
        /// The file states a colour space that was not converted: no colour engine was
        /// given, so the image carries its profile and its stored pixels, or (CMYK) was
        /// converted with a naive formula rather than through a profile.
        public static let colorNotManaged = Code("colorNotManaged")
    }

    /// The kind of warning.
    public let code: Code
    /// Detail, for people and logs.
    public let message: String

    /// A warning of `code`, with `message` for logs.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
