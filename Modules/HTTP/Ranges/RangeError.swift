/// Why a `Content-Range` could not be read, or why a `206 Partial Content` cannot be
/// appended to the bytes a download kept.
///
/// A download that meets one starts over from byte 0; it never appends bytes that do not
/// follow on from what it has.
public struct RangeError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The `Content-Range` value is not `bytes first-last/length` (RFC 9110 §14.4):
        /// a missing space, slash or dash, a non-digit, a number too large for 63 bits.
        public static let malformedContentRange = Code("malformedContentRange")
        /// The range unit is not `bytes`.
        public static let unsupportedRangeUnit = Code("unsupportedRangeUnit")
        /// `bytes */length`: the server could satisfy no range.
        public static let unsatisfiedRange = Code("unsatisfiedRange")
        /// The last position is before the first, or not before the complete length.
        public static let invalidRange = Code("invalidRange")
        /// A 206 without `Content-Range` (a `multipart/byteranges` body, say).
        public static let missingContentRange = Code("missingContentRange")
        /// A 206 with more than one `Content-Range` field.
        public static let multipleContentRanges = Code("multipleContentRanges")
        /// The range does not start where the kept bytes end.
        public static let doesNotFollowOn = Code("doesNotFollowOn")
        /// The range stops before the end of the representation.
        public static let doesNotReachEnd = Code("doesNotReachEnd")
        /// The complete length is `*`: nothing says the appended whole is complete.
        public static let completeLengthUnknown = Code("completeLengthUnknown")
        /// The complete length differs from the one the kept bytes were part of.
        public static let completeLengthChanged = Code("completeLengthChanged")
        /// `Content-Length` differs from the length of the range.
        public static let lengthMismatch = Code("lengthMismatch")
        /// The 206 carries a validator other than the one the kept bytes came with.
        public static let validatorMismatch = Code("validatorMismatch")
        /// The 206 is content-encoded (gzip, say), while the kept bytes are not.
        public static let contentEncoded = Code("contentEncoded")
    }

    public var code: Code
    /// What was wrong, for logs.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
